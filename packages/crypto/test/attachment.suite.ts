import { assert, type CryptoCase, type CryptoModule } from './suite-kit.ts';

/** Chunked attachment encryption and the versioned message content, run in Node and Chromium. */

const damaged = async (promise: Promise<unknown>, what: string) => {
  try {
    await promise;
  } catch (error) {
    const code = (error as { code?: string }).code;
    assert(code === 'ERR_ATTACHMENT_DAMAGED', `${what}: unexpected error ${String(code)}`);
    return;
  }
  throw new Error(`${what}: expected ERR_ATTACHMENT_DAMAGED`);
};

const equal = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((byte, i) => byte === b[i]);

export const attachmentCases = (c: CryptoModule): CryptoCase[] => {
  const chunk = c.attachmentChunkBytes;
  /** A file of `size` patterned bytes, encrypted: the plaintext, its chunks and the cipher. */
  const encrypted = async (size: number) => {
    const plain = Uint8Array.from({ length: size }, (_, i) => (i * 31 + 7) % 251);
    const cipher = await c.newAttachmentCipher(size);
    const chunks: Uint8Array[] = [];
    await c.encryptBlobInChunks(new Blob([plain]), cipher, async (index, bytes) => {
      assert(index === chunks.length, 'chunks come in order');
      chunks.push(bytes);
    });
    return { plain, chunks, cipher };
  };
  const decryptAll = async (
    secret: Parameters<CryptoModule['openAttachmentCipher']>[0],
    chunks: Uint8Array[],
  ) => {
    const reader = await c.openAttachmentCipher(secret);
    const parts = [];
    for (let i = 0; i < reader.chunkCount; i++) parts.push(await reader.decryptChunk(i, chunks[i]!));
    return new Uint8Array(await new Blob(parts).arrayBuffer());
  };

  return [
    {
      name: 'attachments: round-trips empty, one-chunk, exact-multiple and ragged files chunk by chunk',
      async run() {
        for (const size of [0, 1, chunk, 2 * chunk, 2 * chunk + 5]) {
          const { plain, chunks, cipher } = await encrypted(size);
          assert(chunks.length === c.chunkCountOf(size), `${size}: chunk count`);
          const total = chunks.reduce((sum, part) => sum + part.length, 0);
          assert(total === c.encryptedSizeOf(size), `${size}: encrypted size`);
          chunks.forEach((part, i) =>
            assert(part.length === c.encryptedChunkSizeOf(size, i), `${size}: chunk ${i} length`),
          );
          assert(equal(await decryptAll(cipher.secret, chunks), plain), `${size}: round-trip`);
        }
      },
    },
    {
      name: 'attachments: a fresh key and nonce prefix per file',
      async run() {
        const [a, b] = await Promise.all([c.newAttachmentCipher(10), c.newAttachmentCipher(10)]);
        assert(a.secret.key !== b.secret.key && a.secret.noncePrefix !== b.secret.noncePrefix, 'fresh');
      },
    },
    {
      name: 'attachments: reordered, dropped, truncated, altered and foreign chunks do not decrypt',
      async run() {
        const { chunks, cipher } = await encrypted(3 * chunk);
        const reader = await c.openAttachmentCipher(cipher.secret);
        await damaged(reader.decryptChunk(0, chunks[1]!), 'chunk 1 read as chunk 0');
        await damaged(reader.decryptChunk(1, chunks[2]!), 'chunk 2 read as chunk 1 (chunk 1 dropped)');
        // The file cut after chunk 1: the reader of a 2-chunk file expects chunk 1 to be final.
        const cut = await c.openAttachmentCipher({ ...cipher.secret, size: 2 * chunk });
        await damaged(cut.decryptChunk(1, chunks[1]!), 'truncated after chunk 1');
        const altered = chunks[2]!.slice();
        altered[100]! ^= 1;
        await damaged(reader.decryptChunk(2, altered), 'one bit flipped');
        await damaged(
          reader.decryptChunk(2, chunks[2]!.subarray(0, chunks[2]!.length - 1)),
          'one byte short',
        );
        const other = await encrypted(3 * chunk);
        await damaged(reader.decryptChunk(0, other.chunks[0]!), "another file's chunk");
        const wrongPrefix = await c.openAttachmentCipher({
          ...cipher.secret,
          noncePrefix: other.cipher.secret.noncePrefix,
        });
        await damaged(wrongPrefix.decryptChunk(0, chunks[0]!), 'another nonce prefix');
      },
    },
    {
      name: 'message content: version 1 text still reads, version 2 carries attachments',
      async run() {
        assert(c.decodeMessageContent('hello').text === 'hello', 'old text');
        assert(
          c.encodeMessageContent({ text: 'plain', attachments: [] }) === 'plain',
          'text alone stays version 1',
        );
        const ref = {
          blobId: 'blob1',
          key: 'k',
          noncePrefix: 'p',
          size: 5,
          name: 'a.png',
          type: 'image/png',
          thumbnail: { jpeg: 'j', width: 2, height: 1 },
        };
        const decoded = c.decodeMessageContent(c.encodeMessageContent({ text: 'hi', attachments: [ref] }));
        assert(decoded.text === 'hi' && JSON.stringify(decoded.attachments[0]) === JSON.stringify(ref), 'v2');
        const nul = c.decodeMessageContent(
          c.encodeMessageContent({ text: '\u0000veil:2\n{}', attachments: [] }),
        );
        assert(
          nul.text === '\u0000veil:2\n{}' && nul.attachments.length === 0,
          'a text that looks like the marker',
        );
        const bad = c.decodeMessageContent('\u0000veil:2\n{"attachments":[{"blobId":1}]}');
        assert(bad.attachments.length === 0, 'malformed attachments are dropped');
      },
    },
  ];
};
