import { base64ToBytes, bytesToBase64 } from './base64.ts';
import { sha256Hex, utf8 } from './digest.ts';
import type { KeyLogEntry } from './key-log.ts';
import { importSigningPublicKeySpkiBase64 } from './signing-key.ts';

/** A key map as sent: each member's wrapped message key, by user id. */
export type KeyMap = Readonly<Record<string, string>>;

/**
 * What a signature covers of a key map, for a reader served only its own wrapped key: the member
 * ids (sorted) and the SHA-256 (hex) of the sorted `id:wrappedKey` lines, exactly as the full
 * map's encoding has them (`keyMapSummaryOf`).
 */
export interface KeyMapSummary {
  members: readonly string[];
  digest: string;
}

/** What a signature is checked against: the full key map, or its summary (the same encoding). */
export type SignedKeys = KeyMap | KeyMapSummary;

/**
 * The time from which Veil's browsers sign every message, edit, deletion and reaction. Accounts
 * got signing keys one release before browsers began to sign: what was stored unsigned before
 * this time is history from before signatures, whatever the sender's key log says.
 */
export const messagesSignedSince = '2026-11-24T07:10:00.000Z';

/**
 * The time from which Veil's browsers sign everything with version 2 (key commitment, key-log
 * heads, counter and previous message). A version 1 signature whose signed time is later is a
 * failure: a server cannot strip what version 2 adds by passing a message off as version 1, since
 * the signed time is covered by the signature.
 */
export const signatureV2Since = '2026-11-28T07:45:00.000Z';

/**
 * The time from which Veil's browsers carry a franking tag (signature version 3) on every message
 * and every edit. A message or an edit without one (version 1 or 2) whose signed time or stored
 * time is not earlier is a failure: its sender's client left the tag out, so what it says could
 * never be reported. Either time counts because each is chosen by a different party: the sender
 * picks the signed time (so could date an untagged message before this), the server the stored
 * time (which gains it nothing to move: it can forge no tag).
 */
export const frankingSince = '2026-11-29T00:00:00.000Z';

/**
 * What version 2 adds to a message's signature (docs/crypto.md, "Sender signatures"):
 * - `keyCommitment`: `keyCommitmentOf` the message key; a reader checks it against the key it
 *   unwrapped (one ciphertext wrapped with two keys for two members fails for one of them);
 * - `keyLogHeads`: the hash of the newest key-log entry, as the sender saw it, of the sender and
 *   of every member it was sealed for (a reader whose own view differs has been shown a split view);
 * - `counter`: 1, 2, 3… per sender and chat, over everything the sender signs in it;
 * - `prev`: the client message id of the sender's previous message in that chat, or null;
 * - `franking` (version 3, messages and edits): the franking tag of the text (`franking.ts`),
 *   which a report of the message is checked against.
 */
export interface SignatureSequence {
  keyCommitment: string;
  keyLogHeads: Readonly<Record<string, string>>;
  counter: number;
  prev: string | null;
  franking?: string;
}

/**
 * An action's version 2 fields: as a message's, with no commitment when nothing is sealed (a
 * deletion, a reaction's removal), and for an edit the version it replaces: the client message
 * id of the message for its first edit, else `editVersionOf` the edit it replaces. An edit's
 * franking tag (of its new text) makes it version 3; no other action carries one.
 */
export interface ActionSequence extends Omit<SignatureSequence, 'keyCommitment'> {
  keyCommitment: string | null;
  replaces: string | null;
}

/**
 * Sender signatures: a message signed with the sender's identity key over a canonical encoding of
 * everything that makes it this message in this chat, so a server cannot move it to another chat,
 * another sender, another reply, another time or another set of readers without the signature
 * failing. The signature is ECDSA P-256 with SHA-256 in WebCrypto's 64-byte (r ‖ s) form, base64.
 */
export interface SignedMessage<Keys extends SignedKeys = KeyMap> {
  /** The message's ciphertext and iv, base64, as sent. */
  ciphertext: string;
  iv: string;
  /** The chat: a group's id, or `directChatRef` of the two people for a one-to-one chat. */
  chat: string;
  senderId: string;
  clientMessageId: string;
  /** The id of the message replied to, or null. */
  replyTo: string | null;
  /** When the sender made it (ISO 8601), as the sender's clock says. */
  createdAt: string;
  /** The wrapped message key of every member it was sealed for (or their summary). */
  encryptedKeys: Keys;
  /** Present: signed with version 2 (version 3 when it carries a franking tag), over these fields too. */
  v2?: SignatureSequence;
}

/**
 * A one-to-one chat named by its two people (sorted), since the first message is signed before
 * the server has given the chat an id.
 */
export const directChatRef = (userA: string, userB: string): string =>
  `direct:${[userA, userB].sort().join(':')}`;

const ecdsaSha256 = { name: 'ECDSA', hash: 'SHA-256' } as const;

/**
 * What a later action on a message is: a new text, a deletion for everyone, or a reaction (its
 * emoji sealed like a message; a removed reaction has nothing sealed).
 */
export type MessageActionKind = 'edit' | 'delete' | 'reaction' | 'reaction-removal';

/** An action on a message, signed by whoever takes it (the sender for an edit or a deletion). */
export interface SignedMessageAction<Keys extends SignedKeys = KeyMap> {
  kind: MessageActionKind;
  /** The id of the message acted on. */
  target: string;
  /** The chat, named as for a message (`directChatRef` for a one-to-one chat). */
  chat: string;
  /** Who takes the action. */
  senderId: string;
  /** When they took it (ISO 8601), as their clock says. */
  createdAt: string;
  /** The new text (an edit) or the emoji (a reaction), sealed for the chat's members; null: none. */
  sealed: { ciphertext: string; iv: string; encryptedKeys: Keys } | null;
  /** Present: signed with version 2, over these fields too (`reaction-removal` needs it). */
  v2?: ActionSequence;
}

const isSummary = (keys: SignedKeys): keys is KeyMapSummary => Array.isArray((keys as KeyMapSummary).members);

/** A full key map's summary: its member ids, sorted, and the SHA-256 of its sorted `id:wrappedKey` lines. */
export const keyMapSummaryOf = async (
  encryptedKeys: KeyMap,
): Promise<{ members: string[]; digest: string }> => {
  const members = Object.keys(encryptedKeys).sort();
  const digest = await sha256Hex(utf8(members.map((id) => `${id}:${encryptedKeys[id]}`).join('\n')));
  return { members, digest };
};

/**
 * The member ids (sorted, comma-separated) and the SHA-256 of their sorted `id:wrappedKey` lines.
 * A summary is taken as it is (members not sorted encode to something no sender signed), but its
 * members must be ids: one holding a comma could pass two members off as one.
 */
const keyMapFields = async (keys: SignedKeys): Promise<[string, string]> => {
  if (!isSummary(keys)) {
    const { members, digest } = await keyMapSummaryOf(keys);
    return [members.join(','), digest];
  }
  if (keys.members.some((id) => typeof id !== 'string' || id.includes(',')))
    throw new TypeError('A key map summary names something that is not an id');
  return [keys.members.join(','), keys.digest];
};

const encodeFields = (fields: readonly unknown[]): Uint8Array<ArrayBuffer> => {
  if (fields.some((field) => typeof field !== 'string' || /[\r\n]/.test(field)))
    throw new TypeError('A signed message field is missing or holds a line break');
  return utf8(fields.join('\n'));
};

const hex64 = /^[0-9a-f]{64}$/;

/**
 * Version 2's fields, one a line: the commitment, the number of key-log heads then one sorted
 * `id:hash` line each, the counter and the previous message (`-`: none). Anything out of shape is
 * refused, so no two sets of fields encode alike.
 */
const sequenceFields = (
  sequence: Omit<SignatureSequence, 'keyCommitment'> & { keyCommitment: string | null },
) => {
  const ids = Object.keys(sequence.keyLogHeads).sort();
  if (ids.some((id) => id.includes(':') || !hex64.test(sequence.keyLogHeads[id] ?? '')))
    throw new TypeError('A key-log head is not an id and a SHA-256');
  if (!Number.isSafeInteger(sequence.counter) || sequence.counter < 1)
    throw new TypeError('A counter is not a positive whole number');
  if (sequence.prev === '-') throw new TypeError('A previous message id may not be "-"');
  return [
    sequence.keyCommitment ?? '-',
    String(ids.length),
    ...ids.map((id) => `${id}:${sequence.keyLogHeads[id]}`),
    String(sequence.counter),
    sequence.prev ?? '-',
  ];
};

const messageHeader = (v2: SignatureSequence | undefined) =>
  `veil message signature ${v2?.franking !== undefined ? 3 : v2 ? 2 : 1}`;

/**
 * One field a line, in a fixed order; the member ids sorted, and a SHA-256 over the sorted
 * `id:wrappedKey` lines, so the encoding does not depend on the order of a JSON object's keys.
 * No field may contain a line break (ids and base64 cannot; anything else is refused). Version 3
 * is version 2 with the franking tag on a last line; its first line differs, so a tag can be
 * neither stripped from a version 3 signature nor added to a version 2 one.
 */
export const messageSignatureBytes = async (
  message: SignedMessage<SignedKeys>,
): Promise<Uint8Array<ArrayBuffer>> =>
  encodeFields([
    messageHeader(message.v2),
    message.ciphertext,
    message.iv,
    message.chat,
    message.senderId,
    message.clientMessageId,
    message.replyTo ?? '-',
    message.createdAt,
    ...(await keyMapFields(message.encryptedKeys)),
    ...(message.v2 ? sequenceFields(message.v2) : []),
    ...(message.v2?.franking !== undefined ? [message.v2.franking] : []),
  ]);

const actionHeader = (action: SignedMessageAction<SignedKeys>) => {
  if (action.v2?.franking === undefined) return `veil message action signature ${action.v2 ? 2 : 1}`;
  if (action.kind !== 'edit') throw new TypeError('Only a message or an edit carries a franking tag');
  return 'veil message action signature 3';
};

/**
 * An action's encoding: its own first line (so no action's signature can pass as a message's,
 * nor one kind's as another's), the kind and the message it acts on, then the message fields
 * that apply to it (`-` for what an action has not: a deletion seals nothing). Version 3 (an
 * edit only) is version 2 with the franking tag of the new text on a last line, under its own
 * first line, as for a message.
 */
export const messageActionSignatureBytes = async (
  action: SignedMessageAction<SignedKeys>,
): Promise<Uint8Array<ArrayBuffer>> =>
  encodeFields([
    actionHeader(action),
    action.kind,
    action.target,
    action.chat,
    action.senderId,
    action.createdAt,
    action.sealed?.ciphertext ?? '-',
    action.sealed?.iv ?? '-',
    ...(action.sealed ? await keyMapFields(action.sealed.encryptedKeys) : ['-', '-']),
    ...(action.v2 ? [...sequenceFields(action.v2), action.v2.replaces ?? '-'] : []),
    ...(action.v2?.franking !== undefined ? [action.v2.franking] : []),
  ]);

/**
 * What a later edit names as the version it replaces when that version is itself an edit: the
 * SHA-256 (hex) of the replaced edit's signature value, which no one but its signer could make.
 */
export const editVersionOf = (signatureValue: string): Promise<string> => sha256Hex(utf8(signatureValue));

/**
 * A message or an action on one: both are signed the same way, over their own encodings, with
 * their key maps in full or summarised (the same bytes either way).
 */
export type Signed = SignedMessage<SignedKeys> | SignedMessageAction<SignedKeys>;
const isAction = (signed: Signed): signed is SignedMessageAction<SignedKeys> => 'kind' in signed;
/** A message or an edit: what says something of its sender's, so what a report can reveal. */
const carriesText = (signed: Signed) => !isAction(signed) || signed.kind === 'edit';
const signedBytes = (signed: Signed) =>
  isAction(signed) ? messageActionSignatureBytes(signed) : messageSignatureBytes(signed);

// Opening a chat verifies many messages of a few senders: each sender's key is imported once.
const importedKeys = new Map<string, Promise<CryptoKey>>();
const importVerifyKey = (spki: string): Promise<CryptoKey> => {
  let key = importedKeys.get(spki);
  if (!key) {
    if (importedKeys.size >= 256) importedKeys.clear();
    key = importSigningPublicKeySpkiBase64(spki);
    key.catch(() => importedKeys.delete(spki));
    importedKeys.set(spki, key);
  }
  return key;
};

/** Signs a message with the sender's (non-extractable) signing key; resolves the base64 signature. */
export const signMessage = async (signingKey: CryptoKey, message: Signed): Promise<string> =>
  bytesToBase64(
    new Uint8Array(await crypto.subtle.sign(ecdsaSha256, signingKey, await signedBytes(message))),
  );

/**
 * Whether `signature` is the holder of `signingPublicKey` (base64 SPKI) signing exactly this
 * message. Anything malformed (the key, the signature, a field) is simply not a valid signature.
 */
export const verifyMessageSignature = async (
  signingPublicKey: string,
  message: Signed,
  signature: string,
): Promise<boolean> => {
  try {
    const key = await importVerifyKey(signingPublicKey);
    const bytes = base64ToBytes(signature);
    if (bytes.length !== 64) return false;
    return await crypto.subtle.verify(ecdsaSha256, key, bytes, await signedBytes(message));
  } catch {
    return false;
  }
};

/** The signing key the key log names at `time` (the newest entry not after it), or null: none yet. */
export const signingKeyAt = (log: readonly KeyLogEntry[], time: string): string | null => {
  const at = Date.parse(time);
  let key: string | null = null;
  for (const entry of log) {
    if (Date.parse(entry.at) > at) break;
    key = entry.signingKey;
  }
  return key;
};

/**
 * Why a message (or an action) is not shown as its sender's:
 * - `unsigned`: no signature, though the sender had a signing key at the time;
 * - `no-signing-key`: a signature, though the sender had no signing key at the time;
 * - `replaced-key`: signed with a key of the sender's that the key log had replaced by then;
 * - `bad-signature`: the signature does not hold for what is shown (a field changed: the text,
 *   the chat, the sender, the time, the readers or their keys), or it is not the sender's;
 * - `outdated-version`: a version 1 signature over a time from `signatureV2Since` on;
 * - `unfranked`: a message or an edit without a franking tag, signed or stored from
 *   `frankingSince` on.
 */
export type SignatureFailure =
  'unsigned' | 'no-signing-key' | 'replaced-key' | 'bad-signature' | 'outdated-version' | 'unfranked';

export type SignatureVerdict =
  | { status: 'verified' }
  /**
   * Unsigned, from before the sender had a signing key or before `messagesSignedSince`: shown as
   * sent before messages were signed.
   */
  | { status: 'legacy' }
  | { status: 'failed'; reason: SignatureFailure };

/**
 * Whether a message or an edit may go without a franking tag: signed and stored before
 * `frankingSince`. A sender back-dating its signed time is caught by the stored time; a time
 * that is not one counts as after.
 */
const beforeFranking = (signedAt: string, storedAt: string): boolean =>
  Date.parse(signedAt) < Date.parse(frankingSince) && Date.parse(storedAt) < Date.parse(frankingSince);

/**
 * Checks a message as it appears (its fields rebuilt from where it is shown, not from what it
 * claims) against the sender's key log (already checked with `checkKeyLog`), at `at`: the time
 * the server stored the message (for an edit, the edit). The rules for unsigned messages: stored
 * before the sender's first signing key, or before `messagesSignedSince`, they are history from
 * before signatures; stored later (or at a time that is not one), a missing signature is a
 * failure. A message or an edit without a franking tag fails when signed or stored from
 * `frankingSince` on.
 */
export const checkMessageSignature = async (
  log: readonly KeyLogEntry[],
  at: string,
  signed: Signed,
  signature: string | undefined,
): Promise<SignatureVerdict> => {
  const key = signingKeyAt(log, at);
  if (!signature)
    return key && !(Date.parse(at) < Date.parse(messagesSignedSince))
      ? { status: 'failed', reason: 'unsigned' }
      : { status: 'legacy' };
  if (!key) return { status: 'failed', reason: 'no-signing-key' };
  // Signed after version 2 came: version 1 no longer counts (the signed time cannot be moved).
  if (!signed.v2 && !(Date.parse(signed.createdAt) < Date.parse(signatureV2Since)))
    return { status: 'failed', reason: 'outdated-version' };
  if (carriesText(signed) && signed.v2?.franking === undefined && !beforeFranking(signed.createdAt, at))
    return { status: 'failed', reason: 'unfranked' };
  if (await verifyMessageSignature(key, signed, signature)) return { status: 'verified' };
  const earlier = new Set(log.map((entry) => entry.signingKey).filter((k): k is string => !!k && k !== key));
  for (const old of earlier)
    if (await verifyMessageSignature(old, signed, signature))
      return { status: 'failed', reason: 'replaced-key' };
  return { status: 'failed', reason: 'bad-signature' };
};

/**
 * Who a key map seals a message for, against who should read it: the chat's members when it was
 * sent. `missing`: members left out; `strangers`: ids that are not members.
 */
export const sealedFor = (
  encryptedKeys: Readonly<Record<string, string>>,
  members: readonly string[],
): { sealed: string[]; missing: string[]; strangers: string[] } => {
  const sealed = Object.keys(encryptedKeys).sort();
  const expected = new Set(members);
  return {
    sealed,
    missing: [...expected].filter((id) => !(id in encryptedKeys)).sort(),
    strangers: sealed.filter((id) => !expected.has(id)),
  };
};
