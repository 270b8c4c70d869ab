import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { makePng, messageWithText, openChat, sayHi, sendMessage, signedUpPerson } from './flows.ts';
import { useVeilWeb } from './harness.ts';

/**
 * Encrypted attachments between two real browsers: an image with its thumbnail and lightbox, a
 * 20 MB file with progress and a download decrypted in the browser, a cancelled upload that
 * leaves nothing behind, and a scan showing that no file name or content reached the server.
 */
const marker = 'VEIL-CONTENT-MARKER-5d1c9e';
const megabytes = (n: number) => n * 1024 * 1024;

/** `size` random bytes with the marker written every 64 KiB: content the server must never see. */
const markedFile = (size: number) => {
  const bytes = randomBytes(size);
  for (let at = 0; at + marker.length < size; at += 64 * 1024) bytes.write(marker, at, 'latin1');
  return bytes;
};

/** Picks a file as a user would, from disk (a buffer this large is slow to hand to the page). */
const pickedDirs: string[] = [];
const pick = async (page: Page, name: string, buffer: Buffer) => {
  const dir = await mkdtemp(path.join(tmpdir(), 'veil-pick-'));
  pickedDirs.push(dir);
  const file = path.join(dir, name);
  await writeFile(file, buffer);
  await page.getByTestId('attachment-input').setInputFiles(file);
};

const progressOf = (page: Page, name: string) =>
  page
    .getByRole('progressbar', { name: `Uploading ${name}` })
    .evaluate((bar) => (bar as HTMLProgressElement).value);

/** Every file under a folder, at any depth. */
const filesUnder = async (dir: string): Promise<string[]> => {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
};

describe('encrypted attachments (browser)', { timeout: 240_000 }, () => {
  const veilWeb = useVeilWeb({ ownProcess: true });
  afterAll(() => Promise.all(pickedDirs.map((dir) => rm(dir, { recursive: true, force: true }))));

  it('sends an image and a 20 MB file, cancels an upload, and nothing of the files reaches the server', async () => {
    const veil = veilWeb();
    const alice = await signedUpPerson(veil, 'fal');
    const bob = await signedUpPerson(veil, 'fbo');
    const requestBodies: Buffer[] = [];
    for (const page of [alice.page, bob.page])
      page.on('request', (request) => {
        const body = request.postDataBuffer();
        if (body) requestBodies.push(body);
      });
    await sayHi(alice.page, bob.name);
    await openChat(bob.page, alice.name);

    // An image: the thumbnail shows at once, a click opens the full image, Escape closes it.
    const imageName = 'holiday-photo-3f8a.png';
    await pick(alice.page, imageName, makePng(64, [30, 140, 220]));
    await alice.page.getByText('Ready').waitFor();
    await sendMessage(alice.page, 'the photo');
    const photo = messageWithText(bob.page, 'the photo');
    await photo.getByTestId('attachment-thumbnail').waitFor();
    const open = photo.getByRole('button', { name: `Open ${imageName}` });
    await open.click();
    const lightbox = bob.page.getByRole('dialog', { name: imageName });
    await expect
      .poll(() =>
        lightbox.getByTestId('lightbox-image').evaluate((img) => (img as HTMLImageElement).naturalWidth),
      )
      .toBe(64);
    // Large, whatever the image's size, with a Download of the same file.
    const shown = await lightbox.getByTestId('lightbox-image').boundingBox();
    expect(shown!.width).toBeGreaterThan(600);
    const [saved] = await Promise.all([
      bob.page.waitForEvent('download'),
      lightbox.getByRole('button', { name: 'Download', exact: true }).click(),
    ]);
    expect(saved.suggestedFilename()).toBe(imageName);
    await bob.page.keyboard.press('Escape');
    await lightbox.waitFor({ state: 'detached' });
    await expect
      .poll(() => bob.page.evaluate(() => document.activeElement?.getAttribute('aria-label')))
      .toBe(`Open ${imageName}`);

    // A 20 MB file: progress moves, then it is sent; Bob's download is the same bytes.
    const fileName = 'quarterly-plans-9c2e.bin';
    const content = markedFile(megabytes(20));
    await pick(alice.page, fileName, content);
    await expect.poll(() => progressOf(alice.page, fileName)).toBeGreaterThan(0);
    await alice.page.getByText('Ready').waitFor({ timeout: 120_000 });
    await sendMessage(alice.page, 'the plans');
    const plans = messageWithText(bob.page, 'the plans');
    await plans.getByTestId('attachment-file').getByText(fileName).waitFor();
    expect(await plans.getByTestId('attachment-file').textContent()).toContain('20 MB');
    const [download] = await Promise.all([
      bob.page.waitForEvent('download', { timeout: 120_000 }),
      plans.getByRole('button', { name: `Download ${fileName}` }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(fileName);
    const downloaded = await readFile((await download.path())!);
    expect(createHash('sha256').update(downloaded).digest('hex')).toBe(
      createHash('sha256').update(content).digest('hex'),
    );

    // A cancelled upload: gone from the tray, and its chunks from the server.
    const cancelledName = 'never-sent-71b0.bin';
    await pick(alice.page, cancelledName, markedFile(megabytes(20)));
    await expect.poll(() => progressOf(alice.page, cancelledName)).toBeGreaterThan(0);
    await alice.page.getByRole('button', { name: `Cancel upload of ${cancelledName}` }).click();
    await alice.page
      .getByRole('progressbar', { name: `Uploading ${cancelledName}` })
      .waitFor({ state: 'detached' });
    const blobsWithChunks = async () => {
      const root = path.join(veil.dataDir, 'blobs', 'attachments');
      const folders = await readdir(root);
      const counts = await Promise.all(
        folders.map(async (folder) => (await readdir(path.join(root, folder))).length),
      );
      return counts.filter((count) => count > 0).length;
    };
    await expect.poll(blobsWithChunks).toBe(2);

    // Nothing of the names or the content, in the requests the pages sent, the log, or any file.
    const secrets = [imageName, fileName, cancelledName, marker];
    const seen = (bytes: Buffer) => secrets.filter((secret) => bytes.includes(secret, 0, 'utf8'));
    // The JSON bodies (starts, sends); chunk bodies are Blobs, whose bytes the blob store scan covers.
    expect(requestBodies.length).toBeGreaterThan(4);
    expect(requestBodies.flatMap(seen)).toEqual([]);
    expect(seen(Buffer.from(JSON.stringify(veil.logs)))).toEqual([]);
    const stored = await filesUnder(veil.dataDir);
    expect(stored.some((file) => file.includes(`${path.sep}attachments${path.sep}`))).toBe(true);
    for (const file of stored) expect(seen(await readFile(file)), file).toEqual([]);
  });
});
