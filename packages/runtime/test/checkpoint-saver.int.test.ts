import { describe, expect, it } from 'vitest';
import { createEmbeddedReadStore } from '@veil/readstore-embedded';
import { createCheckpointSaver, type Checkpoint } from '@veil/kernel';
import type { Collection } from '@veil/ports';
import { createLogger } from '../src/logger.ts';

const createTestLogger = () => createLogger({ LOG_LEVEL: 'silent', LOG_FORMAT: 'json', INSTANCE_ID: 'test' });

/** A real collection whose writes take a while, as a database round trip does; it records each write. */
const slowCollection = async () => {
  const real = await createEmbeddedReadStore().collection<Checkpoint>('_checkpoints');
  const written: number[] = [];
  let release: (() => void) | null = null;
  const collection: Collection<Checkpoint> = {
    ...real,
    async put(doc) {
      await new Promise<void>((resolve) => (release = resolve));
      written.push(doc.position);
      await real.put(doc);
    },
  };
  const finishWrite = async () => {
    while (!release) await new Promise((r) => setTimeout(r, 1));
    const go = release;
    release = null;
    go();
    await new Promise((r) => setTimeout(r, 1));
  };
  return { real, collection, written, finishWrite };
};

describe('checkpoint saver', () => {
  it('coalesces a burst into few writes, never ahead of what was applied, and flushes the newest', async () => {
    const store = await slowCollection();
    const saver = createCheckpointSaver({
      checkpoints: store.collection,
      checkpointId: 'p:message',
      saved: 0,
      log: createTestLogger(),
    });
    saver.save(1); // the first write starts at once with position 1
    for (let position = 2; position <= 100; position++) saver.save(position);
    await store.finishWrite(); // writes 1; 2..100 arrived meanwhile: one more write, of 100
    const flushed = saver.flush();
    await store.finishWrite();
    await flushed;
    expect(store.written).toEqual([1, 100]);
    expect((await store.real.get('p:message'))?.position).toBe(100);
  });

  it('never moves a checkpoint backwards', async () => {
    const store = await slowCollection();
    const saver = createCheckpointSaver({
      checkpoints: store.collection,
      checkpointId: 'p:chat',
      saved: 10,
      log: createTestLogger(),
    });
    saver.save(5);
    saver.save(12);
    const flushed = saver.flush();
    await store.finishWrite();
    await flushed;
    expect(store.written).toEqual([12]);
  });
});
