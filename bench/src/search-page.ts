import {
  createVaultKey,
  exportPublicKeySpkiBase64,
  generateUserKeyPair,
  openVault,
  sealVault,
} from '@veil/crypto';
import { createMessageIndex, type MessageIndex } from '../../web/src/features/search/message-index.ts';

/**
 * The page side of the search benchmark (bundled for Chromium by search-bench.ts): the web
 * client's own message index, filled with synthetic messages made in the page, then queried;
 * and its save, sealed and opened again as the browser keeps it at rest.
 */
export interface SearchPage {
  build(messages: number): Promise<{ buildMs: number; documents: number }>;
  query(text: string): { ms: number; hits: number };
  saveAndLoad(): Promise<{
    serializeMs: number;
    sealMs: number;
    openMs: number;
    loadMs: number;
    bytes: number;
  }>;
}

/** A small deterministic generator: the same messages in every run. */
const random = (seed: number) => () => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed / 0x7fffffff;
};

const words = (
  'the a to and of in is it you that was for on are with as be at this have from or one had by ' +
  'meeting tomorrow lunch dinner office train station weekend holiday photos birthday party coffee ' +
  'project deadline report budget invoice client server deploy release bug fix review merge branch ' +
  'doctor appointment pharmacy groceries milk bread eggs cheese apples football match tickets concert ' +
  'museum beach mountain hiking bicycle garden kitchen recipe pasta pizza salad soup chocolate cake ' +
  'lighthouse harbour island ferry airport flight hotel booking passport visa museum gallery painting'
).split(' ');

let index: MessageIndex = createMessageIndex();

const page = window as unknown as SearchPage;
page.build = async (messages) => {
  const next = random(42);
  index = createMessageIndex();
  const started = performance.now();
  for (let i = 0; i < messages; i += 1) {
    const length = 4 + Math.floor(next() * 16);
    const text = Array.from({ length }, () => words[Math.floor(next() * words.length)]).join(' ');
    index.put({
      id: `m${i}`,
      chatId: `c${i % 200}`,
      seq: i + 1,
      senderId: `u${i % 7}`,
      createdAt: new Date(1_700_000_000_000 + i * 60_000).toISOString(),
      text: i % 1000 === 0 ? `${text} zanzibar${i}` : text,
    });
  }
  return { buildMs: performance.now() - started, documents: index.size };
};

page.query = (text) => {
  const started = performance.now();
  const hits = index.search(text).length;
  return { ms: performance.now() - started, hits };
};

page.saveAndLoad = async () => {
  const { publicKey } = await generateUserKeyPair();
  const { key } = await createVaultKey(await exportPublicKeySpkiBase64(publicKey));
  let started = performance.now();
  const text = JSON.stringify(index.save());
  const serializeMs = performance.now() - started;
  started = performance.now();
  const sealed = await sealVault(key, text);
  const sealMs = performance.now() - started;
  started = performance.now();
  const opened = await openVault(key, sealed);
  const openMs = performance.now() - started;
  started = performance.now();
  index = createMessageIndex(JSON.parse(opened));
  const loadMs = performance.now() - started;
  return { serializeMs, sealMs, openMs, loadMs, bytes: sealed.ciphertext.byteLength };
};
