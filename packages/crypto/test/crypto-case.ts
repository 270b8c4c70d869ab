import type * as VeilCrypto from '../src/index.ts';

/**
 * The crypto cases, written once and run in every runtime (jose's approach): the module under
 * test is a parameter, each case throws on failure. Node runs them through vitest; Chromium runs
 * the same bundle in a page.
 */
export type CryptoModule = typeof VeilCrypto;
export interface CryptoCase {
  name: string;
  run(): Promise<void>;
}

export const assert: (condition: unknown, message: string) => asserts condition = (condition, message) => {
  if (!condition) throw new Error(message);
};
