import { DomainError, type Ack, type ErrorBody } from '@veil/contracts';
import type { Logger } from '@veil/ports';

/** Any failure as the wire's error body; unknown errors are logged and never leak their text. */
export const toErrorBody = (error: unknown, log: Logger): ErrorBody => {
  if (error instanceof DomainError) return error.toBody();
  log.error({ err: error }, 'unexpected error in a realtime handler');
  return { code: 'INTERNAL', message: 'Something went wrong' };
};

/** Clients may or may not pass an ack; anything that is not a function is ignored. */
export const asAck = <T>(value: unknown): Ack<T> | undefined =>
  typeof value === 'function' ? (value as Ack<T>) : undefined;
