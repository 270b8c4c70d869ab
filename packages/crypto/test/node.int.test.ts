import { describe, it } from 'vitest';
import * as veilCrypto from '../src/index.ts';
import { cryptoCases } from './crypto.suite.ts';

describe('@veil/crypto in Node', () => {
  for (const testCase of cryptoCases(veilCrypto)) it(testCase.name, () => testCase.run(), 30_000);
});
