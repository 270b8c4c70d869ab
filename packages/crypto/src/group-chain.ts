import { base64ToBytes, bytesToBase64 } from './base64.ts';
import { sha256Hex, utf8 } from './digest.ts';
import { importSigningPublicKeySpkiBase64 } from './signing-key.ts';

/**
 * A group's state as a chain of changes, each signed by the member who made it over the group
 * id, the change, the hash of the change before it and a time (docs/crypto.md, "Signed group
 * state"). As in MLS (RFC 9420), a change names the state it applies to, so a server that stores
 * the chain can neither write a change of its own nor reorder or drop one without the chain
 * breaking; every member's browser folds the chain itself and trusts nothing else about who is
 * in the group.
 *
 * Kinds, and who may sign them (`applyGroupChange`):
 * - `created`: the first change; the signer is among the members and becomes the first admin.
 * - `snapshot`: the first change of a group that existed before its state was signed: an admin
 *   signs the members, admins, name, picture and timer as they are, once.
 * - `members-added`, `member-removed`, `admin-promoted`, `renamed`, `picture-changed`: an admin.
 * - `member-left`: the member who leaves; a last admin who leaves hands the role to the
 *   longest-standing member left (the product's rule, so nobody signs the promotion).
 * - `timer-set`: any member (the product's rule: the disappearing timer is anyone's to set).
 * The product has no demotion, so there is no change for it.
 */
export const groupChangeKinds = [
  'created',
  'snapshot',
  'members-added',
  'member-removed',
  'member-left',
  'admin-promoted',
  'renamed',
  'picture-changed',
  'timer-set',
] as const;
export type GroupChangeKind = (typeof groupChangeKinds)[number];

/** The `prevHash` of a chain's first change. */
export const groupChainGenesisHash = '0'.repeat(64);

/** What a change says, before it is placed in a chain and signed. Fields a kind does not use are empty. */
export interface GroupChangeBody {
  kind: GroupChangeKind;
  /** `created`, `snapshot`: every member, longest-standing first; `members-added`: the new ones; `member-removed`, `admin-promoted`: the one. */
  memberIds: string[];
  /** `snapshot` only: the admins. */
  adminIds: string[];
  /** `created`, `snapshot`, `renamed`: the name members see. */
  name: string | null;
  /** `picture-changed` (null: removed), `snapshot`: SHA-256 of the picture's bytes, lowercase hex. */
  pictureHash: string | null;
  /** `timer-set`, `snapshot`: the disappearing-message timer in seconds (0: off). */
  timerSeconds: number | null;
}

export interface GroupChange extends GroupChangeBody {
  groupId: string;
  /** 1, 2, 3… with no gap. */
  seq: number;
  /** The hash of the change before (the state it applies to); `groupChainGenesisHash` for the first. */
  prevHash: string;
  /** The signer's clock, ISO 8601. */
  at: string;
  signerId: string;
}

export interface SignedGroupChange extends GroupChange {
  /** SHA-256 of `groupChangeBytes`, lowercase hex: the state's hash once this change applies. */
  hash: string;
  /** The signer's ECDSA P-256 (SHA-256) signature over `groupChangeBytes`, base64 (64 bytes). */
  signature: string;
}

/** The group as its signed chain says it is. */
export interface GroupChainState {
  groupId: string;
  seq: number;
  /** Longest-standing first. */
  members: string[];
  admins: string[];
  name: string;
  pictureHash: string | null;
  timerSeconds: number;
  /** The newest change's hash: what the next change names as `prevHash`. */
  hash: string;
  /** The newest change's time. */
  at: string;
}

export type GroupChainProblem =
  /** Not a well-formed change (a field missing, out of shape, or used by another kind). */
  | 'malformed'
  /** The seq, the previous hash or the group id does not follow the state before it. */
  | 'broken-chain'
  /** The hash is not the change's. */
  | 'bad-hash'
  /** The signature does not hold for the signer's key at the change's time. */
  | 'bad-signature'
  /** The signer had no signing key at the change's time. */
  | 'no-signing-key'
  /** The signer may not make this change (not a member, not an admin), or it changes nothing it may. */
  | 'forbidden'
  /** Dated before the change it follows. */
  | 'backdated';

export interface GroupChainFailure {
  problem: GroupChainProblem;
  detail: string;
}

const idPattern = /^[A-Za-z0-9_-]{1,64}$/;
const hexHash = /^[0-9a-f]{64}$/;

const isIdList = (ids: unknown): ids is string[] =>
  Array.isArray(ids) && ids.every((id) => typeof id === 'string' && idPattern.test(id));

/**
 * What a change's hash and signature cover: one field a line in a fixed order under its own
 * first line (no key log entry, message or action encodes to these bytes); ids joined with
 * commas (ids hold none), the name as a JSON string (one line whatever it holds), `-` for none.
 */
export const groupChangeBytes = (change: GroupChange): Uint8Array<ArrayBuffer> => {
  if (
    !idPattern.test(change.groupId) ||
    !idPattern.test(change.signerId) ||
    !Number.isSafeInteger(change.seq) ||
    !(groupChangeKinds as readonly string[]).includes(change.kind) ||
    !isIdList(change.memberIds) ||
    !isIdList(change.adminIds) ||
    !(change.name === null || typeof change.name === 'string') ||
    !(change.pictureHash === null || hexHash.test(change.pictureHash)) ||
    !(
      change.timerSeconds === null ||
      (Number.isSafeInteger(change.timerSeconds) && change.timerSeconds >= 0)
    ) ||
    !hexHash.test(change.prevHash) ||
    typeof change.at !== 'string' ||
    /[\r\n]/.test(change.at)
  )
    throw new TypeError('A group change field is missing or out of shape');
  return utf8(
    [
      'veil group change 1',
      change.groupId,
      String(change.seq),
      change.kind,
      change.memberIds.join(',') || '-',
      change.adminIds.join(',') || '-',
      change.name === null ? '-' : JSON.stringify(change.name),
      change.pictureHash ?? '-',
      change.timerSeconds === null ? '-' : String(change.timerSeconds),
      change.prevHash,
      change.at,
      change.signerId,
    ].join('\n'),
  );
};

const ecdsaSha256 = { name: 'ECDSA', hash: 'SHA-256' } as const;

/** A body with every field a kind does not use left empty. */
export const groupChangeBody = (
  body: Partial<GroupChangeBody> & { kind: GroupChangeKind },
): GroupChangeBody => ({
  memberIds: [],
  adminIds: [],
  name: null,
  pictureHash: null,
  timerSeconds: null,
  ...body,
});

/**
 * Signs `body` as the change that follows `state` (null: the group's first change) in group
 * `groupId`, by `signerId` with their signing key. `at` is this browser's clock. It does not check
 * the rules: the caller folds the result with `applyGroupChange` before sending it.
 */
export const signGroupChange = async (
  groupId: string,
  state: Pick<GroupChainState, 'seq' | 'hash'> | null,
  body: Partial<GroupChangeBody> & { kind: GroupChangeKind },
  signer: { userId: string; signingKey: CryptoKey },
  at: string = new Date().toISOString(),
): Promise<SignedGroupChange> => {
  const change: GroupChange = {
    ...groupChangeBody(body),
    groupId,
    seq: (state?.seq ?? 0) + 1,
    prevHash: state?.hash ?? groupChainGenesisHash,
    at,
    signerId: signer.userId,
  };
  const bytes = groupChangeBytes(change);
  const [hash, signature] = await Promise.all([
    sha256Hex(bytes),
    crypto.subtle.sign(ecdsaSha256, signer.signingKey, bytes),
  ]);
  return { ...change, hash, signature: bytesToBase64(new Uint8Array(signature)) };
};

export type GroupFold =
  { ok: true; state: GroupChainState } | { ok: false; problem: GroupChainProblem; detail: string };

const refuse = (problem: GroupChainProblem, detail: string): GroupFold => ({ ok: false, problem, detail });

/** Fields a kind leaves empty: a change that fills one says more than its kind allows. */
const onlyUses = (change: GroupChangeBody, fields: (keyof GroupChangeBody)[]): boolean =>
  (['memberIds', 'adminIds', 'name', 'pictureHash', 'timerSeconds'] as const).every((field) => {
    if (fields.includes(field)) return true;
    const value = change[field];
    return Array.isArray(value) ? value.length === 0 : value === null;
  });

const isName = (name: string | null): name is string => typeof name === 'string' && name.trim().length > 0;
const unique = (ids: readonly string[]) => new Set(ids).size === ids.length;

/**
 * The pure fold: the state after `change` (its hash taken as given: `verifyGroupChain` checks it
 * and the signature), or why the change does not apply to `state` (null: the group has no change
 * yet). The rules are the product's (see the kinds above); times never go backwards.
 */
export const applyGroupChange = (state: GroupChainState | null, change: SignedGroupChange): GroupFold => {
  const signer = change.signerId;
  const where = `change ${change.seq}`;
  if (!state) {
    if (change.seq !== 1 || change.prevHash !== groupChainGenesisHash)
      return refuse('broken-chain', `${where}: the first change must have seq 1 and the genesis hash`);
    const at = change.at;
    if (change.kind === 'created') {
      if (!onlyUses(change, ['memberIds', 'name']) || !isName(change.name))
        return refuse('malformed', `${where}: a creation names its members and its name only`);
      if (!unique(change.memberIds) || change.memberIds.length < 2 || !change.memberIds.includes(signer))
        return refuse('forbidden', `${where}: a group is created by one of its members, with another`);
      return {
        ok: true,
        state: {
          groupId: change.groupId,
          seq: 1,
          members: [...change.memberIds],
          admins: [signer],
          name: change.name,
          pictureHash: null,
          timerSeconds: 0,
          hash: change.hash,
          at,
        },
      };
    }
    if (change.kind === 'snapshot') {
      if (!isName(change.name) || change.timerSeconds === null)
        return refuse('malformed', `${where}: a snapshot names the whole state`);
      if (
        !unique(change.memberIds) ||
        !unique(change.adminIds) ||
        !change.adminIds.every((id) => change.memberIds.includes(id)) ||
        !change.adminIds.includes(signer)
      )
        return refuse('forbidden', `${where}: a snapshot is signed by one of the admins it names`);
      return {
        ok: true,
        state: {
          groupId: change.groupId,
          seq: 1,
          members: [...change.memberIds],
          admins: [...change.adminIds],
          name: change.name,
          pictureHash: change.pictureHash,
          timerSeconds: change.timerSeconds,
          hash: change.hash,
          at,
        },
      };
    }
    return refuse('broken-chain', `${where}: a chain starts with a creation or a snapshot`);
  }

  if (change.groupId !== state.groupId || change.seq !== state.seq + 1 || change.prevHash !== state.hash)
    return refuse('broken-chain', `${where}: does not follow the group's state`);
  const at = Date.parse(change.at);
  if (!Number.isFinite(at)) return refuse('malformed', `${where}: has no valid time`);
  if (at < Date.parse(state.at))
    return refuse('backdated', `${where}: is dated before the change it follows`);
  if (!state.members.includes(signer)) return refuse('forbidden', `${where}: the signer is not a member`);
  const isAdmin = state.admins.includes(signer);
  const next = (fields: Partial<GroupChainState>): GroupFold => ({
    ok: true,
    state: { ...state, ...fields, seq: change.seq, hash: change.hash, at: change.at },
  });
  const adminOnly = () => refuse('forbidden', `${where}: only an admin may make a ${change.kind} change`);

  switch (change.kind) {
    case 'created':
    case 'snapshot':
      return refuse('broken-chain', `${where}: a ${change.kind} change only starts a chain`);
    case 'members-added': {
      if (!onlyUses(change, ['memberIds']) || change.memberIds.length === 0 || !unique(change.memberIds))
        return refuse('malformed', `${where}: names the members it adds, once each`);
      if (!isAdmin) return adminOnly();
      if (change.memberIds.some((id) => state.members.includes(id)))
        return refuse('forbidden', `${where}: adds someone who is already a member`);
      return next({ members: [...state.members, ...change.memberIds] });
    }
    case 'member-removed': {
      const [target] = change.memberIds;
      if (!onlyUses(change, ['memberIds']) || change.memberIds.length !== 1 || !target)
        return refuse('malformed', `${where}: names the one member it removes`);
      if (!isAdmin) return adminOnly();
      if (target === signer || !state.members.includes(target))
        return refuse('forbidden', `${where}: removes someone who is not another member`);
      return next({
        members: state.members.filter((id) => id !== target),
        admins: state.admins.filter((id) => id !== target),
      });
    }
    case 'member-left': {
      if (!onlyUses(change, ['memberIds']) || change.memberIds.length !== 1 || change.memberIds[0] !== signer)
        return refuse('forbidden', `${where}: a member leaves only by their own signature`);
      const members = state.members.filter((id) => id !== signer);
      const admins = state.admins.filter((id) => id !== signer);
      // The product's rule: a last admin who leaves hands the role to the longest-standing member.
      if (!admins.length && members[0]) admins.push(members[0]);
      return next({ members, admins });
    }
    case 'admin-promoted': {
      const [target] = change.memberIds;
      if (!onlyUses(change, ['memberIds']) || change.memberIds.length !== 1 || !target)
        return refuse('malformed', `${where}: names the one member it promotes`);
      if (!isAdmin) return adminOnly();
      if (!state.members.includes(target) || state.admins.includes(target))
        return refuse('forbidden', `${where}: promotes someone who is not a member, or already an admin`);
      return next({ admins: [...state.admins, target] });
    }
    case 'renamed':
      if (!onlyUses(change, ['name']) || !isName(change.name))
        return refuse('malformed', `${where}: names the new name only`);
      if (!isAdmin) return adminOnly();
      return next({ name: change.name });
    case 'picture-changed':
      if (!onlyUses(change, ['pictureHash'])) return refuse('malformed', `${where}: names the picture only`);
      if (!isAdmin) return adminOnly();
      return next({ pictureHash: change.pictureHash });
    case 'timer-set':
      if (!onlyUses(change, ['timerSeconds']) || change.timerSeconds === null)
        return refuse('malformed', `${where}: names the timer only`);
      return next({ timerSeconds: change.timerSeconds });
    default:
      return refuse('malformed', `${where}: an unknown kind`);
  }
};

/** Checks a change's hash (and its shape, which the encoding needs). Null when it holds. */
export const checkGroupChangeHash = async (change: SignedGroupChange): Promise<GroupChainFailure | null> => {
  let bytes: Uint8Array<ArrayBuffer>;
  try {
    bytes = groupChangeBytes(change);
  } catch {
    return { problem: 'malformed', detail: `change ${change.seq}: a field is missing or out of shape` };
  }
  return (await sha256Hex(bytes)) === change.hash
    ? null
    : { problem: 'bad-hash', detail: `change ${change.seq}: does not match its hash` };
};

/** Does `signature` hold for the change under this signing key (base64 SPKI)? */
export const verifyGroupChangeSignature = async (
  signingKey: string,
  change: SignedGroupChange,
): Promise<boolean> => {
  try {
    const signature = base64ToBytes(change.signature);
    if (signature.length !== 64) return false;
    const key = await importSigningPublicKeySpkiBase64(signingKey);
    return await crypto.subtle.verify(ecdsaSha256, key, signature, groupChangeBytes(change));
  } catch {
    return false;
  }
};

export type GroupChainCheck =
  | { ok: true; state: GroupChainState | null }
  | {
      ok: false;
      /** The state the changes before the failing one give (null: none held). */
      state: GroupChainState | null;
      /** The index of the change that fails. */
      index: number;
      problem: GroupChainProblem;
      detail: string;
    };

/**
 * Verifies a served chain in order: each change's hash, its signature by the signer's signing
 * key at the change's time (`keyFor`: from the signer's checked key log; null when they had
 * none), and the fold's rules. Stops at the first change that fails: what follows a bad change
 * cannot be trusted either. An empty chain is a group whose state is not signed yet (state null).
 */
export const verifyGroupChain = async (
  changes: readonly SignedGroupChange[],
  keyFor: (userId: string, at: string) => Promise<string | null> | string | null,
): Promise<GroupChainCheck> => {
  let state: GroupChainState | null = null;
  for (const [index, change] of changes.entries()) {
    const fail = (problem: GroupChainProblem, detail: string): GroupChainCheck => ({
      ok: false,
      state,
      index,
      problem,
      detail,
    });
    const hashFailure = await checkGroupChangeHash(change);
    if (hashFailure) return fail(hashFailure.problem, hashFailure.detail);
    const key = await keyFor(change.signerId, change.at);
    if (!key) return fail('no-signing-key', `change ${change.seq}: its signer had no signing key then`);
    if (!(await verifyGroupChangeSignature(key, change)))
      return fail('bad-signature', `change ${change.seq}: is not signed by ${change.signerId}`);
    const folded = applyGroupChange(state, change);
    if (!folded.ok) return fail(folded.problem, folded.detail);
    state = folded.state;
  }
  return { ok: true, state };
};
