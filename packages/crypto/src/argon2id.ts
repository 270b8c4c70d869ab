/**
 * Argon2id, the passphrase KDF of the key backup. WebCrypto has no memory-hard KDF, so this is the
 * one dependency of @veil/crypto: `hash-wasm` (Argon2 compiled to WebAssembly, no native code, the
 * same bytes in browsers and Node). It is imported on first use, so the web client's first page
 * does not carry it.
 */
export interface Argon2idParams {
  /** Memory per derivation, in KiB (Argon2's m). */
  memoryKiB: number;
  /** Passes over that memory (Argon2's t). */
  iterations: number;
  /** Lanes (Argon2's p): 1, as OWASP's settings and a browser's single thread give. */
  parallelism: number;
}

/**
 * For every new passphrase: 64 MiB and 4 passes, over OWASP's current minimum (19 MiB, t = 2,
 * p = 1), tuned to 0.5-1 s in Chromium on the two-core machine the benchmarks run on
 * (bench/src/key-backup-bench.ts). Stored in each backup, so a later change leaves older
 * backups readable.
 */
export const argon2idParams: Argon2idParams = { memoryKiB: 65_536, iterations: 4, parallelism: 1 };

/**
 * What opening accepts (and the server's backup schema too): OWASP's floor, and ceilings on the
 * memory and on memory × passes (four times the default cost, a few seconds at most), so a
 * planted backup can neither hang the page nor take gigabytes.
 */
export const argon2idBounds = {
  minMemoryKiB: 19_456,
  maxMemoryKiB: 262_144,
  minIterations: 2,
  maxIterations: 16,
  maxMemoryTimesIterations: 4 * 65_536 * 4,
} as const;

export const argon2idParamsAreAcceptable = (params: Argon2idParams): boolean => {
  const { memoryKiB, iterations, parallelism } = params;
  const b = argon2idBounds;
  return (
    Number.isInteger(memoryKiB) &&
    Number.isInteger(iterations) &&
    parallelism === 1 &&
    memoryKiB >= b.minMemoryKiB &&
    memoryKiB <= b.maxMemoryKiB &&
    iterations >= b.minIterations &&
    iterations <= b.maxIterations &&
    memoryKiB * iterations <= b.maxMemoryTimesIterations
  );
};

/** 32 bytes from the passphrase's bytes and a salt, with Argon2id (version 0x13). */
export const deriveArgon2idKey = async (
  password: Uint8Array,
  salt: Uint8Array,
  params: Argon2idParams,
): Promise<Uint8Array<ArrayBuffer>> => {
  const { argon2id } = await import('hash-wasm');
  const hash = await argon2id({
    password,
    salt,
    memorySize: params.memoryKiB,
    iterations: params.iterations,
    parallelism: params.parallelism,
    hashLength: 32,
    outputType: 'binary',
  });
  return new Uint8Array(hash);
};
