/** Server-side limits; docs/decisions.md explains each value. */
export const limits = {
  /** Users one account may block: room for any real list, a bound on the read model's row. */
  blockedUsersMax: 1000,
  /** Earlier messages a report may carry beside the reported one (the context an operator reads). */
  reportEarlierMessagesMax: 4,
  /** Reports one account may file per hour (each is read by a person). */
  reportsPerUserPerHour: 10,
  /** A reported message's text (the most a message's ciphertext can hold) and a report's note. */
  reportTextMaxChars: 48 * 1024,
  /** Chats one account may pin to the top of its list (as WhatsApp). */
  pinnedChatsMax: 5,
  usernameMin: 3,
  usernameMax: 30,
  passwordMin: 8,
  passwordMax: 256,
  /** Pictures: bytes are sniffed (PNG, JPEG, WebP, GIF); size and pixel caps stop decompression bombs. */
  pictureMaxBytes: 2 * 1024 * 1024,
  pictureMaxPixels: 4096 * 4096,
  pictureMaxSide: 8192,
  /** base64 of a 2048..4096-bit RSA SPKI public key. */
  publicKeyMaxChars: 1024,
  /** base64 of an ECDSA P-256 SPKI public key (124 characters). */
  signingKeyMaxChars: 200,
  /** A key backup's encrypted PKCS#8 signing key, base64 (about 210 for P-256). */
  keyBackupSigningCiphertextMaxChars: 512,
  /** Ciphertext of one message, base64. 64 KiB of base64 is about 48 KiB of text. */
  messageCiphertextMaxChars: 64 * 1024,
  /** A wrapped key is RSA-OAEP output: 256 bytes for 2048-bit keys, 512 for 4096-bit. */
  wrappedKeyMaxChars: 700,
  /** Re-wrapped own message keys per request. */
  rewrapBatchMax: 100,
  /** A sender may edit or delete a message for everyone this long after sending it. */
  messageChangeWindowMs: 24 * 60 * 60 * 1000,
  /** A reaction's ciphertext, base64: one emoji (a few code points) sealed with AES-GCM. */
  reactionCiphertextMaxChars: 256,
  groupNameMax: 100,
  groupMaxMembers: 256,
  historyPageDefault: 50,
  historyPageMax: 200,
  jsonBodyMaxBytes: 1024 * 1024,
  /**
   * An encrypted key backup, as JSON: the keys of a 4096-bit account are under 5 KB; the rest is
   * room for the sealed account state it carries (`keyBackupStateMaxChars`).
   */
  keyBackupMaxBytes: 520 * 1024,
  /**
   * The sealed account state in a backup (what the account's browsers trust: pinned key-log heads,
   * verified contacts, the key-log entries they made), base64: some thousands of contacts.
   */
  keyBackupStateMaxChars: 512 * 1024,
  /** Its encrypted PKCS#8 private key, base64 (a 4096-bit RSA key is about 3,200). */
  keyBackupCiphertextMaxChars: 4096,
  /** PBKDF2 iterations a passphrase unlock may name: OWASP's floor, and a ceiling that keeps a restore bounded. */
  keyBackupMinIterations: 600_000,
  keyBackupMaxIterations: 10_000_000,
  /**
   * Argon2id parameters a passphrase unlock may name (@veil/crypto's `argon2idBounds`): OWASP's
   * floor, and ceilings on the memory (KiB) and on memory × passes, so a restore stays bounded.
   */
  keyBackupArgon2MinMemoryKiB: 19_456,
  keyBackupArgon2MaxMemoryKiB: 262_144,
  keyBackupArgon2MinIterations: 2,
  keyBackupArgon2MaxIterations: 16,
  keyBackupArgon2MaxMemoryTimesIterations: 1_048_576,
  /** A browser link: how long it stays open, the largest message it relays and how many it relays. */
  linkTtlSeconds: 120,
  linkMessageMaxChars: 64 * 1024,
  linkMessagesMax: 8,
  /**
   * One sealed call signal's ciphertext, base64: a video offer's SDP is 5-8 KB; room for one
   * with many codecs and candidates, nothing to carry files over (docs/calls.md, "Limits").
   */
  callSignalCiphertextMaxChars: 32 * 1024,
  /** One encrypted attachment chunk: 256 KiB of the file and its 16-byte AES-GCM tag (docs/attachments.md). */
  attachmentChunkBytes: 256 * 1024 + 16,
  /** Files one message may carry. */
  attachmentsPerMessageMax: 10,
} as const;

/**
 * The disappearing-message timers a chat may have, in seconds: off, 5 minutes, 1 hour, 1 day,
 * 1 week (docs/disappearing-messages.md).
 */
export const disappearingTimers = [0, 300, 3600, 86_400, 604_800] as const;

export const usernamePattern = /^[A-Za-z0-9_-]+$/;
export const usernameRuleText = `Username must be ${limits.usernameMin}-${limits.usernameMax} characters: letters, digits, "_" or "-"`;

/** Writes one signed-in user may make per minute unless configured (`WRITES_PER_USER_PER_MINUTE`). */
export const defaultWritesPerUserPerMinute = 600;

/** Call signals one user may send per minute, over all their sockets and the replicas. */
export const callSignalsPerUserPerMinute = 300;

/** The per-user budget of call signals (the RateLimits port, shared by replicas). */
export const callSignalBudget = {
  name: 'call-signals-user',
  points: callSignalsPerUserPerMinute,
  windowSeconds: 60,
} as const;

/**
 * The per-user write budget (the RateLimits port): every HTTP write route and every change to a
 * message over the socket spend from it, so switching from one way to the other gains nothing.
 */
export const userWriteBudget = (perMinute: number) => ({
  name: 'writes-user',
  points: perMinute,
  windowSeconds: 60,
});

/** Whole seconds until a spent budget is whole again (at least one), for Retry-After and messages. */
export const retryAfterSeconds = (retryAfterMs: number): number =>
  Math.max(1, Math.ceil(retryAfterMs / 1000));
