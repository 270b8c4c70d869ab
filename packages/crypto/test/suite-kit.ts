import type * as VeilCrypto from '../src/index.ts';

/**
 * What the shared crypto cases are made of: the module under test is a parameter, each case
 * throws on failure (plain assertions, so the cases run in any runtime).
 */
export type CryptoModule = typeof VeilCrypto;
export interface CryptoCase {
  name: string;
  run(): Promise<void>;
}

export const assert: (condition: unknown, message: string) => asserts condition = (condition, message) => {
  if (!condition) throw new Error(message);
};

export const rejects = async (
  promise: Promise<unknown>,
  check: (error: { code?: string; message?: string }) => boolean,
  what: string,
) => {
  try {
    await promise;
  } catch (error) {
    assert(
      check(error as { code?: string }),
      `${what}: unexpected error ${String((error as Error).message)}`,
    );
    return;
  }
  throw new Error(`${what}: expected a rejection`);
};
