import type { z } from 'zod';
import type { Context } from '../subjects.ts';
import { accessEventSchema } from './access.events.ts';
import { attachmentEventSchema } from './attachment.events.ts';
import { authEventSchema } from './auth.events.ts';
import { chatEventSchema } from './chat.events.ts';
import { messageEventSchema } from './message.events.ts';
import { pushEventSchema } from './push.events.ts';
import { reportEventSchema } from './report.events.ts';
import { userEventSchema } from './user.events.ts';

/** Every context's event union: what may be appended to it, and what its readers may meet. */
export const eventSchemasByContext = {
  auth: authEventSchema,
  access: accessEventSchema,
  user: userEventSchema,
  chat: chatEventSchema,
  message: messageEventSchema,
  attachment: attachmentEventSchema,
  push: pushEventSchema,
  report: reportEventSchema,
} as const satisfies Record<Context, z.ZodType>;

/** The events of one context (of several: their union), as appended to and read from its log. */
export type EventOf<C extends Context> = z.infer<(typeof eventSchemasByContext)[C]>;
/** Any event of any context. */
export type VeilEvent = z.infer<(typeof eventSchemasByContext)[Context]>;
export type VeilEventType = VeilEvent['type'];
/** The event of one type, and its payload. */
export type EventOfType<T extends VeilEventType> = Extract<VeilEvent, { type: T }>;
export type EventData<T extends VeilEventType> = EventOfType<T>['data'];
