import * as c from '@veil/crypto';

/**
 * The page side of the key-log benchmark (bundled for Chromium by key-log-bench.ts): what the
 * web client does with key logs, timed in one round and returned as plain numbers.
 */
export interface KeyLogPage {
  timeKeyLogRound(sizes: { longLogEntries: number; contacts: number }): Promise<{
    /** Checking one log of `longLogEntries` signed entries (`checkKeyLog`, pinned to its head). */
    longLogMs: number;
    /** Checking `contacts` logs of three entries each at once, as a chat list of that many does. */
    chatListMs: number;
    /** Sealing and signing one message to a two-person chat, its members' keys already checked. */
    sendMs: number;
    /** The same with both members' logs checked and their keys imported first (a send after a page load). */
    sendWithChecksMs: number;
  }>;
}

const registered = '2026-01-01T00:00:00.000Z';
const at = (seconds: number) => new Date(Date.parse(registered) + seconds * 1000).toISOString();

/** A signed log: `registered`, then `attested` entries of the same keys, one a second. */
const logOf = async (length: number, encryptionKey: string) => {
  const signing = await c.generateSigningKeyPair();
  const signingKey = await c.exportPublicKeySpkiBase64(signing.publicKey);
  const entries: c.SignedKeyLogEntry[] = [];
  for (let i = 0; i < length; i++)
    entries.push(
      await c.signKeyLogEntry(
        entries.at(-1) ?? null,
        { encryptionKey, signingKey, reason: i === 0 ? 'registered' : 'attested', at: at(i) },
        signing.privateKey,
      ),
    );
  return { entries, signing, current: { encryptionKey, signingKey } };
};

const timeKeyLogRound: KeyLogPage['timeKeyLogRound'] = async ({ longLogEntries, contacts }) => {
  const now = Date.now();
  const encryption = await c.generateUserKeyPair();
  const encryptionKey = await c.exportPublicKeySpkiBase64(encryption.publicKey);
  const check = (log: Awaited<ReturnType<typeof logOf>>) =>
    c.checkKeyLog(log.entries, { pinnedHash: log.entries.at(-1)!.hash, current: log.current, now });

  const long = await logOf(longLogEntries, encryptionKey);
  let start = performance.now();
  if (!(await check(long)).ok) throw new Error('the long log must check');
  const longLogMs = performance.now() - start;

  const list = await Promise.all(Array.from({ length: contacts }, () => logOf(3, encryptionKey)));
  start = performance.now();
  const checked = await Promise.all(list.map(check));
  const chatListMs = performance.now() - start;
  if (!checked.every((result) => result.ok)) throw new Error('every contact log must check');

  const [me, them] = await Promise.all([logOf(3, encryptionKey), logOf(3, encryptionKey)]);
  const signingKey = await c.nonExtractableSigningKey(me.signing.privateKey);
  const sendWith = async (keys: Record<string, CryptoKey>, i: number) => {
    const envelope = await c.encryptMessage(`message ${i} ${'x'.repeat(80)}`, keys);
    await c.signMessage(signingKey, {
      ciphertext: envelope.content,
      iv: envelope.iv,
      chat: c.directChatRef('me', 'them'),
      senderId: 'me',
      clientMessageId: `client-${i}`,
      replyTo: null,
      createdAt: new Date().toISOString(),
      encryptedKeys: envelope.encryptedKeys,
    });
  };
  const sends = 50;
  const cached = {
    me: await c.importPublicKeySpkiBase64(encryptionKey),
    them: await c.importPublicKeySpkiBase64(encryptionKey),
  };
  start = performance.now();
  for (let i = 0; i < sends; i++) await sendWith(cached, i);
  const sendMs = (performance.now() - start) / sends;
  start = performance.now();
  for (let i = 0; i < sends; i++) {
    const [mine, theirs] = await Promise.all([check(me), check(them)]);
    if (!mine.ok || !theirs.ok) throw new Error('both logs must check');
    const [meKey, themKey] = await Promise.all([
      c.importPublicKeySpkiBase64(mine.head.encryptionKey),
      c.importPublicKeySpkiBase64(theirs.head.encryptionKey),
    ]);
    await sendWith({ me: meKey, them: themKey }, i);
  }
  const sendWithChecksMs = (performance.now() - start) / sends;
  return { longLogMs, chatListMs, sendMs, sendWithChecksMs };
};

(window as unknown as KeyLogPage).timeKeyLogRound = timeKeyLogRound;
