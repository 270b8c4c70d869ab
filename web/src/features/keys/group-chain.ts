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
import type { ApiError } from '../../lib/api-error.ts';
import { fetchData } from '../../lib/fetch-data.ts';
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
  /** Who the server says made it, and when (the entry's time, as its notice carries it). */
  by: string;
  at: string;
  /** `after-failure`: a change that follows one that failed, which cannot be trusted either. */
  problem: GroupChainProblem | 'unsigned' | 'after-failure';
}

/** A verified change as its notice must say it: what it did, and the admins after it. */
export interface VerifiedChange {
  by: string;
  at: string;
  change: Pick<SignedGroupChange, 'kind' | 'memberIds' | 'name' | 'timerSeconds' | 'signerId'>;
  adminsAfter: readonly string[];
}

/** Who the members were from a verified change on, by the server's time of that change. */
export interface SignedMembership {
  at: string;
  members: readonly string[];
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
      /** The server's time of the first signed change: notices before it are history from before signing. */
      since: string;
      /** The server's time of the newest change it served: what this check covers. */
      latest: string;
      /** The entries whose change verified, by the server's `by` and `at` (as their notices carry them). */
      verified: readonly VerifiedChange[];
      failures: GroupChangeFailure[];
      /** Members after each verified change, oldest first. */
      membership: readonly SignedMembership[];
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
  const first = entries[start];
  if (!first) return { status: 'unsigned' };
  const failures: GroupChangeFailure[] = [];
  const signed = entries.slice(start).filter((entry) => {
    if (!entry.signedChange) failures.push({ by: entry.by, at: entry.at, problem: 'unsigned' });
    return Boolean(entry.signedChange);
  });
  const chain = signed.map((entry) => entry.signedChange as SignedGroupChange);
  const check = await verifyGroupChain(chain, keyFor(accountId));
  const held = check.ok ? signed.length : check.index;
  if (!check.ok) {
    // What follows a change that fails cannot be trusted either: each one is shown as failed.
    for (const [offset, entry] of signed.slice(held).entries())
      failures.push({ by: entry.by, at: entry.at, problem: offset === 0 ? check.problem : 'after-failure' });
  }
  const membership: SignedMembership[] = [];
  const verified: VerifiedChange[] = [];
  let state: GroupChainState | null = null;
  for (const [index, change] of chain.slice(0, held).entries()) {
    const folded = applyGroupChange(state, change);
    const entry = signed[index];
    if (!folded.ok || !entry) break;
    state = folded.state;
    membership.push({ at: entry.at, members: state.members });
    verified.push({ by: entry.by, at: entry.at, change, adminsAfter: state.admins });
  }
  const firstChange = chain[0];
  const snapshot =
    firstChange?.kind === 'snapshot' && held > 0 ? { by: firstChange.signerId, at: firstChange.at } : null;
  return {
    status: 'signed',
    state: check.state,
    snapshot,
    since: first.at,
    latest: entries.at(-1)?.at ?? first.at,
    verified,
    failures,
    membership,
  };
};

export const verifiedGroupOf = async (accountId: string, chatId: string): Promise<VerifiedGroup> =>
  verifyGroupEntries(accountId, await fetchGroupChanges(chatId));

/**
 * What of a group the server's chat view says, as one string: when it changes, the group may
 * have changed, and its chain is fetched again. A group-change event refetches the chat view.
 */
const groupMarkOf = (chat: ChatView) =>
  JSON.stringify([
    chat.participants.map((person) => person._id),
    chat.admins ?? [],
    chat.chatName,
    chat.groupPicture ?? null,
    chat.disappearingSeconds ?? 0,
    chat.notices?.length ?? 0,
    chat.notices?.at(-1)?.at ?? '',
    chat.stateSignedAt ?? '',
  ]);

/** Per account and group: the chat view's mark it was fetched for, and the verified chain by its entries. */
const verifiedCache = new Map<string, { mark: string; entries: string; verified: Promise<VerifiedGroup> }>();

/**
 * The group's verified chain, fetched and verified once per change of the group: a send of the
 * same group state reuses it; `refresh` (the open group's screen, whenever the server's view of
 * it is loaded) fetches it again, since some changes (a snapshot) change nothing the view shows.
 * A chain fetched again that is the same (same entries, so the same head) is not verified again.
 */
export const verifiedGroupFor = async (
  accountId: string,
  chat: ChatView,
  { refresh = false } = {},
): Promise<VerifiedGroup> => {
  const key = `${accountId}:${chat._id}`;
  const mark = groupMarkOf(chat);
  const cached = verifiedCache.get(key);
  if (!refresh && cached?.mark === mark) return cached.verified;
  const entries = await fetchGroupChanges(chat._id);
  const served = JSON.stringify(entries);
  const now = verifiedCache.get(key);
  const verified = now && now.entries === served ? now.verified : verifyGroupEntries(accountId, entries);
  verifiedCache.set(key, { mark, entries: served, verified });
  // A verification that throws is not kept: the next call tries again.
  verified.catch(() => {
    if (verifiedCache.get(key)?.verified === verified) verifiedCache.delete(key);
  });
  return verified;
};

/** Forgets a group's cached chain (after this browser signed a change to it). */
export const forgetVerifiedGroup = (accountId: string, chatId: string) =>
  verifiedCache.delete(`${accountId}:${chatId}`);

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
  let verified = await verifiedGroupOf(accountId, chatId);
  if (verified.status === 'unsigned') {
    // Signed as it is first (shared with the snapshot an open of the group may be signing; one
    // that another browser signed first is refused, and the chain read again holds it).
    await signGroupStateOnce(accountId, chatId).catch(() => false);
    verified = await verifiedGroupOf(accountId, chatId);
    if (verified.status === 'unsigned') return undefined;
  }
  if (!verified.state || verified.failures.some((failure) => failure.problem !== 'unsigned'))
    throw new Error("This group's changes could not be verified");
  const state = verified.state;
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
  forgetVerifiedGroup(accountId, chatId);
  return snapshot;
};

/** Snapshots being signed as their group opens, per account and group. */
const snapshotsSigning = new Map<string, Promise<SignedGroupChange | null>>();

/** Signs an unsigned group's state when this account is one of its admins (opening the group). */
export const signGroupStateOnce = async (accountId: string, chatId: string): Promise<boolean> => {
  const key = `${accountId}:${chatId}`;
  const running = snapshotsSigning.get(key);
  if (running) return Boolean(await running);
  const signing = (async () => {
    const signingKey = await currentSigningKey(accountId);
    return signingKey ? signSnapshot(accountId, chatId, { userId: accountId, signingKey }) : null;
  })();
  snapshotsSigning.set(key, signing);
  try {
    return Boolean(await signing);
  } finally {
    snapshotsSigning.delete(key);
  }
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
  chat: ChatView,
  serverMembers: readonly string[],
): Promise<string[]> => {
  const verified = await verifiedGroupFor(accountId, chat);
  if (verified.status === 'unsigned') return [...serverMembers];
  if (!verified.state) throw new Error("This group's changes could not be verified");
  return [...verified.state.members];
};
