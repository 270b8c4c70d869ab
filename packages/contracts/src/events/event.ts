import { z } from 'zod';

/**
 * The envelope every domain event carries. `eventId` is a ULID and doubles as the publish
 * de-duplication id; `streamId` names the aggregate (the subject's last token). `traceId` names
 * the request that caused the event (W3C trace id), when there was one, for the logs of whoever
 * handles it later; events written before it existed simply lack it.
 */
export const eventMetaSchema = z.object({
  eventId: z.string().min(1),
  streamId: z.string().min(1),
  occurredAt: z.iso.datetime(),
  schemaVersion: z.number().int().positive(),
  traceId: z
    .string()
    .regex(/^[0-9a-f]{32}$/)
    .optional(),
});

export type EventMeta = z.infer<typeof eventMetaSchema>;

/** Any domain event, before its payload is narrowed by a context's union. */
export interface DomainEvent<TType extends string = string, TData = unknown> extends EventMeta {
  type: TType;
  data: TData;
}

export const defineEvent = <TType extends string, TData extends z.ZodType>(type: TType, data: TData) =>
  eventMetaSchema.extend({ type: z.literal(type), data });

export const idSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'Invalid id');
