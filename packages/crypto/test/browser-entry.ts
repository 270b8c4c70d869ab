import * as veilCrypto from '../src/index.ts';
import { cryptoCases } from './crypto.suite.ts';

/** Bundled for Chromium: runs the shared cases in the page and exposes the module for cross-runtime checks. */
declare global {
  interface Window {
    veilCrypto: typeof veilCrypto;
    runCryptoCases(): Promise<{ name: string; error: string | null }[]>;
  }
}

window.veilCrypto = veilCrypto;
window.runCryptoCases = async () => {
  const results = [];
  for (const testCase of cryptoCases(veilCrypto)) {
    try {
      await testCase.run();
      results.push({ name: testCase.name, error: null });
    } catch (error) {
      results.push({ name: testCase.name, error: String((error as Error).message ?? error) });
    }
  }
  return results;
};
