import { describe, expect, it } from 'vitest';
import { runChatListBench } from './chat-list-bench.ts';

/** Keeps the chat-list benchmark working in Chromium; its figures belong in BENCHMARKS.md, not here. */
describe('chat list benchmark (a few chats, one round)', () => {
  it('draws a first visit, lists every chat with its badge and decrypts the previews in view', async () => {
    const result = await runChatListBench(12, 1, 18_650);
    expect(result.chats).toBe(12);
    expect(result.previewsDecrypted).toBeGreaterThan(0);
    expect(result.previewsMs).toBeGreaterThanOrEqual(result.listedMs);
    // The first visit drew the Welcome page after fetching at least the entry script.
    expect(result.firstLoad.scripts).toBeGreaterThan(0);
    expect(result.firstLoad.scriptsGzippedKb).toBeGreaterThan(0);
  }, 180_000);
});
