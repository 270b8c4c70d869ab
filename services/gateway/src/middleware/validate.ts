import type { z } from 'zod';
import { DomainError } from '@veil/contracts';

/** Parses a request part with its contract schema; the first issue becomes the 400 message. */
export const parseWith = <S extends z.ZodType>(schema: S, value: unknown): z.output<S> => {
  const parsed = schema.safeParse(value ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new DomainError('VALIDATION_FAILED', issue?.message ?? 'Invalid request');
  }
  return parsed.data;
};
