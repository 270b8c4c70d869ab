import type { z } from 'zod';
import { DomainError } from './errors.ts';

/**
 * Parses what arrived at an edge (an HTTP request part, a socket payload) with its contract
 * schema; the first issue becomes the VALIDATION_FAILED message the client sees.
 */
export const parseWith = <S extends z.ZodType>(schema: S, value: unknown): z.output<S> => {
  const parsed = schema.safeParse(value ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new DomainError('VALIDATION_FAILED', issue?.message ?? 'Invalid request');
  }
  return parsed.data;
};
