/**
 * A two-faced AES-GCM ciphertext ("invisible salamanders"): one ciphertext and tag that open under
 * two different keys, to two different plaintexts. AES-GCM's tag is linear in the ciphertext over
 * GF(2^128), so with two blocks, the second is solved for so that both keys give the same tag.
 * What a malicious sender builds to tell two readers two different things under one signature.
 */
const R = 0xe1n << 120n;
const mask128 = (1n << 128n) - 1n;

const toBig = (bytes: Uint8Array): bigint => bytes.reduce((n, byte) => (n << 8n) | BigInt(byte), 0n);
const toBytes = (n: bigint): Uint8Array<ArrayBuffer> => {
  const out = new Uint8Array(16);
  for (let i = 15; i >= 0; i--) {
    out[i] = Number(n & 0xffn);
    n >>= 8n;
  }
  return out;
};

/** Multiplication in GCM's field (its bit order: the first bit is the lowest power). */
const gmul = (x: bigint, y: bigint): bigint => {
  let z = 0n;
  let v = y;
  for (let i = 127n; i >= 0n; i--) {
    if ((x >> i) & 1n) z ^= v;
    v = v & 1n ? (v >> 1n) ^ R : v >> 1n;
  }
  return z & mask128;
};
const gpow = (x: bigint, e: bigint): bigint => {
  let result = 1n << 127n; // the field's 1 in GCM's bit order
  let base = x;
  while (e > 0n) {
    if (e & 1n) result = gmul(result, base);
    base = gmul(base, base);
    e >>= 1n;
  }
  return result;
};
const ginv = (x: bigint): bigint => gpow(x, (1n << 128n) - 2n);

/** AES of one block under `raw`: the first block of AES-CBC with a zero iv. */
const aesBlock = async (raw: Uint8Array<ArrayBuffer>, block: Uint8Array<ArrayBuffer>): Promise<bigint> => {
  const key = await crypto.subtle.importKey('raw', raw, 'AES-CBC', false, ['encrypt']);
  const out = await crypto.subtle.encrypt({ name: 'AES-CBC', iv: new Uint8Array(16) }, key, block);
  return toBig(new Uint8Array(out).slice(0, 16));
};

/** The CTR keystream GCM uses for its first two data blocks (counter 2 and 3) under `raw`. */
const keystream = async (raw: Uint8Array<ArrayBuffer>, iv: Uint8Array<ArrayBuffer>) => {
  const key = await crypto.subtle.importKey('raw', raw, 'AES-CTR', false, ['encrypt']);
  const counter = new Uint8Array(16);
  counter.set(iv);
  counter[15] = 2;
  return new Uint8Array(
    await crypto.subtle.encrypt({ name: 'AES-CTR', counter, length: 32 }, key, new Uint8Array(32)),
  );
};

export interface TwoFaced {
  /** base64-free bytes: the ciphertext with its 16-byte tag, as WebCrypto takes it. */
  ciphertext: Uint8Array<ArrayBuffer>;
  iv: Uint8Array<ArrayBuffer>;
}

export const twoFacedCiphertext = async (
  key1: Uint8Array<ArrayBuffer>,
  key2: Uint8Array<ArrayBuffer>,
  /** The first 16 bytes of what `key1` opens it to; the rest is whatever the keys make of it. */
  firstPlaintext: Uint8Array<ArrayBuffer>,
): Promise<TwoFaced> => {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const j0 = new Uint8Array(16);
  j0.set(iv);
  j0[15] = 1;
  const [h1, h2, s1, s2] = await Promise.all([
    aesBlock(key1, new Uint8Array(16)),
    aesBlock(key2, new Uint8Array(16)),
    aesBlock(key1, j0),
    aesBlock(key2, j0),
  ]);
  const stream1 = await keystream(key1, iv);
  const c1 = toBig(firstPlaintext.map((byte, i) => byte ^ stream1[i]!));
  // No associated data, two blocks: the lengths block is 0 ‖ 256 bits.
  const lengths = 256n;
  // tag = c1·H³ ⊕ c2·H² ⊕ L·H ⊕ S, equal under both keys: solve for c2.
  const rest = gmul(c1, gpow(h1, 3n) ^ gpow(h2, 3n)) ^ gmul(lengths, h1 ^ h2) ^ s1 ^ s2;
  const c2 = gmul(rest, ginv(gpow(h1, 2n) ^ gpow(h2, 2n)));
  const tag = gmul(c1, gpow(h1, 3n)) ^ gmul(c2, gpow(h1, 2n)) ^ gmul(lengths, h1) ^ s1;
  const ciphertext = new Uint8Array(48);
  ciphertext.set(toBytes(c1), 0);
  ciphertext.set(toBytes(c2), 16);
  ciphertext.set(toBytes(tag), 32);
  return { ciphertext, iv };
};
