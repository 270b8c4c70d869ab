import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, statfs, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decryptMessage } from '@veil/crypto';
import { createApi, type Api } from './support/api-client.ts';
import { startTestVeil, type TestVeil } from './support/test-veil.ts';
import { createUser, sendDirect, type TestUser } from './support/users.ts';

/**
 * The embedded app on a real, small file system that fills up: sends are refused with a clear
 * 503 and nothing half-written is acknowledged, reads go on, sends work again once space is
 * freed, and a restart finds every acknowledged message exactly once. Mounting a tmpfs needs
 * root (as CI runs); elsewhere the case says it skipped and the log's own fault tests
 * (bus-embedded, a fault-injecting file wrapper) still run.
 */
const mountSmallDisk = async (): Promise<string | null> => {
  const dir = await mkdtemp(path.join(tmpdir(), 'veil-small-disk-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', dir], { stdio: 'ignore' });
    return dir;
  } catch {
    await rm(dir, { recursive: true, force: true });
    return null;
  }
};

const smallDisk = await mountSmallDisk();
if (!smallDisk) console.warn('skipped: mounting a small tmpfs needs root');

const suiteName = `the embedded app on a full disk${smallDisk ? '' : ' (skipped: mounting a small tmpfs needs root)'}`;
describe.skipIf(!smallDisk)(suiteName, () => {
  const dir = smallDisk!;
  const filler = path.join(dir, 'filler');
  let veil: TestVeil;
  let api: Api;
  let alice: TestUser;
  let bob: TestUser;

  const send = (text: string) => sendDirect(api, alice, bob, text);

  const history = async (chatId: string) => {
    const res = await api.get(`/api/v1/chat/getallmessages/${chatId}`, bob.accessToken);
    expect(res.status).toBe(200);
    return Promise.all(
      (
        res.body.data.messages as { content: string; iv: string; encryptedKeys: Record<string, string> }[]
      ).map((m) => decryptMessage(m, bob._id, bob.keys.privateKey)),
    );
  };

  beforeAll(async () => {
    veil = await startTestVeil({}, path.join(dir, 'data'));
    api = createApi(veil.url);
    [alice, bob] = await Promise.all([createUser(api, 'full'), createUser(api, 'full')]);
  });
  afterAll(async () => {
    await veil?.stop();
    execFileSync('umount', [dir]);
    await rm(dir, { recursive: true, force: true });
  });

  it('refuses sends with 503 once the disk is full, keeps reads, and loses nothing it acknowledged', async () => {
    const first = await send('before the disk filled');
    expect(first.status).toBe(201);
    const chatId: string = first.body.data.chat._id;

    // Take every free block; what is left is the room in the log file's last block.
    const { bavail, bsize } = await statfs(dir);
    await writeFile(filler, Buffer.alloc(bavail * bsize)).catch(() => {});

    const acknowledged = ['before the disk filled'];
    let refused: Awaited<ReturnType<typeof send>> | undefined;
    for (let n = 0; n < 100 && !refused; n++) {
      const res = await send(`message ${n}`);
      if (res.status === 201) acknowledged.push(`message ${n}`);
      else refused = res;
    }
    expect(refused?.status).toBe(503);
    expect(refused?.body).toEqual({ success: false, code: 'UNAVAILABLE', message: expect.any(String) });
    // Reads keep working. The read models share the full disk, so they may lag behind the log
    // (which holds every acknowledged message) until space is freed: never ahead, never wrong.
    const whileFull = await history(chatId);
    expect(acknowledged.slice(0, whileFull.length)).toEqual(whileFull);
    expect((await send('still full')).status).toBe(503);

    await rm(filler);
    await expect.poll(() => history(chatId), { timeout: 10_000 }).toEqual(acknowledged);
    const after = await send('after space was freed');
    expect(after.status).toBe(201);
    acknowledged.push('after space was freed');
    expect(await history(chatId)).toEqual(acknowledged);

    veil = await veil.restart();
    api = createApi(veil.url);
    expect(await history(chatId)).toEqual(acknowledged);
  });
});
