import type { ChatView, GroupChangeEntry } from '@veil/contracts';
import {
  applyGroupChange,
  signGroupChange,
  signingKeyAt,
  verifyGroupChain,
  type GroupChainProblem,
  type GroupChainState,
  type GroupChangeBody,
  type GroupChangeKind,
  type SignedGroupChange,
} from '@veil/crypto';
import type { ApiError } from './api-error.ts';
import { fetchData } from './fetch-data.ts';
import { keyLogOf } from './key-logs.ts';
import { currentSigningKey } from './message-signing.ts';

/**
 * A group's state as its signed chain says it is (docs/crypto.md, "Signed group state"): the
 * browser fetches the changes the server recorded, verifies every signed one against its
 * signer's key log, and derives members, admins, name and timer from those alone. A change the
 * server recorded without a valid signature after the chain began is a failure: it is shown,
 * and it changes nothing.
 */
export interface GroupChangeFailure {
  /** Who the server says made it, and when. */
  by: string;
  at: string;
  problem: GroupChainProblem | 'unsigned';
}

export type VerifiedGroup =
  /** No signed change yet: a group from before group changes were signed. */
  | { status: 'unsigned' }
  | {
      status: 'signed';
      /** What the verified changes give; null when not even the first one holds. */
      state: GroupChainState | null;
      /** The first change, when it is an admin's snapshot of an existing group. */
      snapshot: { by: string; at: string } | null;
      failures: GroupChangeFailure[];
    };

const isEntryList = (data: unknown): data is GroupChangeEntry[] => Array.isArray(data);

export const fetchGroupChanges = (chatId: string) =>
  fetchData(`chat/${encodeURIComponent(chatId)}/changes`, isEntryList);

/** The signer's signing key at a time, from their checked key log (null: none, or not checkable). */
const keyFor = (accountId: string) => async (userId: string, at: string) => {
  const log = await keyLogOf(accountId, userId, at);
  return log.ok ? signingKeyAt(log.entries, at) : null;
};

/** Verifies what the server served as the group's changes, as `accountId` sees them. */
export const verifyGroupEntries = async (
  accountId: string,
  entries: readonly GroupChangeEntry[],
): Promise<VerifiedGroup> => {
  const start = entries.findIndex((entry) => entry.signedChange);
  if (start < 0) return { status: 'unsigned' };
  const failures: GroupChangeFailure[] = [];
  const chain: SignedGroupChange[] = [];
  for (const entry of entries.slice(start)) {
    if (entry.signedChange) chain.push(entry.signedChange as SignedGroupChange);
    else failures.push({ by: entry.by, at: entry.at, problem: 'unsigned' });
  }
  const check = await verifyGroupChain(chain, keyFor(accountId));
  if (!check.ok) {
    // What follows a change that fails cannot be trusted either: each one is shown as failed.
    for (const change of chain.slice(check.index))
      failures.push({ by: change.signerId, at: change.at, problem: check.problem });
  }
  const first = chain[0];
  const snapshot =
    first?.kind === 'snapshot' && check.ok !== false ? { by: first.signerId, at: first.at } : null;
  return { status: 'signed', state: check.state, snapshot, failures };
};

export const verifiedGroupOf = async (accountId: string, chatId: string): Promise<VerifiedGroup> =>
  verifyGroupEntries(accountId, await fetchGroupChanges(chatId));

/** A change this browser could not sign, as the API layer reports failures. */
export const signingFailed = (error: unknown): ApiError => ({
  kind: 'unsuccessful',
  status: null,
  statusText: '',
  message: (error as Error).message,
});

/** A new group's id, chosen by its creator's browser so the creation can be signed. */
export const newGroupId = () => `g${crypto.randomUUID().replaceAll('-', '')}`;

/** The creator's signed creation of a group (null for an account without a signing key). */
export const signedCreation = async (
  accountId: string,
  groupId: string,
  name: string,
  memberIds: readonly string[],
): Promise<SignedGroupChange | null> => {
  const signingKey = await currentSigningKey(accountId);
  if (!signingKey) return null;
  const members = [accountId, ...new Set(memberIds.filter((id) => id !== accountId))];
  return signGroupChange(
    groupId,
    null,
    { kind: 'created', memberIds: members, name: name.trim() },
    {
      userId: accountId,
      signingKey,
    },
  );
};

/** SHA-256 of a picture's bytes, lowercase hex: what a signed picture change names. */
export const pictureHashOf = async (picture: Blob): Promise<string> =>
  Array.from(new Uint8Array(await crypto.subtle.digest('SHA-256', await picture.arrayBuffer())), (byte) =>
    byte.toString(16).padStart(2, '0'),
  ).join('');

/**
 * Signs a change to a group as the change after its verified state. A group whose state is not
 * signed yet is first signed as it is (a snapshot), when this account is one of its admins; a
 * non-admin, or an account without a signing key, sends the change unsigned, as before. A chain
 * that does not verify is not signed on top of: the change is refused here.
 */
export const signedGroupChange = async (
  accountId: string,
  chatId: string,
  body: Partial<GroupChangeBody> & { kind: GroupChangeKind },
): Promise<SignedGroupChange | undefined> => {
  const signingKey = await currentSigningKey(accountId);
  if (!signingKey) return undefined;
  const signer = { userId: accountId, signingKey };
  const verified = await verifiedGroupOf(accountId, chatId);
  let state: GroupChainState | null;
  if (verified.status === 'unsigned') {
    const snapshot = await signSnapshot(accountId, chatId, signer);
    if (!snapshot) return undefined;
    const folded = applyGroupChange(null, snapshot);
    if (!folded.ok) throw new Error("This group's state could not be signed");
    state = folded.state;
  } else {
    if (!verified.state || verified.failures.some((failure) => failure.problem !== 'unsigned'))
      throw new Error("This group's changes could not be verified");
    state = verified.state;
  }
  // The server adds only who is not a member yet; the signed change names exactly those.
  const change =
    body.kind === 'members-added'
      ? { ...body, memberIds: [...new Set(body.memberIds ?? [])].filter((id) => !state.members.includes(id)) }
      : body;
  return signGroupChange(chatId, state, change, signer);
};

const isChat = (data: unknown): data is ChatView => typeof data === 'object' && data !== null;

/**
 * Signs a group's current state, as the server serves it, once: by the first admin's browser
 * to open (or change) the group after group changes were signed. Null when this account is not
 * an admin.
 */
export const signSnapshot = async (
  accountId: string,
  chatId: string,
  signer: { userId: string; signingKey: CryptoKey },
): Promise<SignedGroupChange | null> => {
  const chat = await fetchData(`chat/getchatbyid/${encodeURIComponent(chatId)}`, isChat);
  if (!chat.isGroupChat || !chat.admins?.includes(accountId)) return null;
  const snapshot = await signGroupChange(
    chatId,
    null,
    {
      kind: 'snapshot',
      memberIds: chat.participants.map((person) => person._id),
      adminIds: chat.admins,
      name: chat.chatName,
      timerSeconds: chat.disappearingSeconds ?? 0,
    },
    signer,
  );
  await fetchData(`chat/${encodeURIComponent(chatId)}/changes/snapshot`, (_data): _data is unknown => true, {
    json: { signedChange: snapshot },
  });
  return snapshot;
};

/** Signs an unsigned group's state when this account is one of its admins (opening the group). */
export const signGroupStateOnce = async (accountId: string, chatId: string): Promise<boolean> => {
  const signingKey = await currentSigningKey(accountId);
  if (!signingKey) return false;
  return Boolean(await signSnapshot(accountId, chatId, { userId: accountId, signingKey }));
};

/**
 * Whom a group message is sealed for: the members the signed chain gives, whatever the server
 * lists. A group whose state is not signed yet is sealed for the server's list, as before. A
 * chain that does not verify at all refuses to send; one with a failed change seals for the
 * state before it (the server then refuses the message if its list differs: nothing is sent
 * to a member the chain does not hold).
 */
export const sealingMembers = async (
  accountId: string,
  chatId: string,
  serverMembers: readonly string[],
): Promise<string[]> => {
  const verified = await verifiedGroupOf(accountId, chatId);
  if (verified.status === 'unsigned') return [...serverMembers];
  if (!verified.state) throw new Error("This group's changes could not be verified");
  return [...verified.state.members];
};
