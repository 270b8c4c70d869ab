import { DomainError, type SignedGroupChangeData } from '@veil/contracts';
import { applyGroupChange, checkGroupChangeHash, type GroupChainState } from '@veil/crypto';
import type { GroupDecision, GroupState } from '../domain/group.decider.ts';

/**
 * What the service checks of a signed group change (docs/crypto.md, "Signed group state"): what
 * it can without the signer's key. The signature itself is for members' browsers to verify.
 */

/** How far a signed change's time may be from the service's clock: a browser's clock drifts, not by days. */
export const signedChangeWindowMs = 10 * 60_000;

const invalid = (message: string) => new DomainError('GROUP_CHANGE_INVALID', message);

const sameIds = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((id, index) => id === b[index]);

/** The signer is the caller, the group is this one, the hash is the change's and the time is now-ish. */
const checkOwnership = async (
  signed: SignedGroupChangeData,
  caller: { userId: string; chatId: string; now: number },
) => {
  if (signed.signerId !== caller.userId) throw invalid("The change is signed in another member's name");
  if (signed.groupId !== caller.chatId) throw invalid('The change is signed for another group');
  const hashFailure = await checkGroupChangeHash(signed);
  if (hashFailure) throw invalid(`The signed change does not hold: ${hashFailure.detail}`);
  if (Math.abs(Date.parse(signed.at) - caller.now) > signedChangeWindowMs)
    throw invalid("The signed change's time is too far from the server's");
};

/** Applies the fold's rules to the chain the service holds; a refusal as the error it maps to. */
const mustApply = (state: GroupChainState | null, signed: SignedGroupChangeData) => {
  const folded = applyGroupChange(state, signed);
  if (folded.ok) return;
  if (folded.problem === 'broken-chain')
    throw new DomainError(
      'GROUP_CHANGE_NOT_HEAD',
      `The signed change does not extend the group's: ${folded.detail}`,
    );
  if (folded.problem === 'forbidden') throw new DomainError('FORBIDDEN', folded.detail);
  throw invalid(folded.detail);
};

/** Does the signed change say what the request does? */
const matchesDecision = (signed: SignedGroupChangeData, decision: GroupDecision): boolean => {
  switch (decision.type) {
    case 'GroupChatCreated':
      return (
        signed.kind === 'created' &&
        signed.name === decision.data.name &&
        sameIds(signed.memberIds, decision.data.members)
      );
    case 'ChatMembersAdded':
      return signed.kind === 'members-added' && sameIds(signed.memberIds, decision.data.members);
    case 'ChatMemberRemoved':
      return signed.kind === 'member-removed' && sameIds(signed.memberIds, [decision.data.memberId]);
    case 'ChatMemberLeft':
      return signed.kind === 'member-left' && sameIds(signed.memberIds, [decision.data.memberId]);
    case 'ChatAdminPromoted':
      return signed.kind === 'admin-promoted' && sameIds(signed.memberIds, [decision.data.memberId]);
    case 'GroupRenamed':
      return signed.kind === 'renamed' && signed.name === decision.data.name;
    case 'GroupPictureChanged':
      return (
        signed.kind === 'picture-changed' &&
        (signed.pictureHash === null) === (decision.data.pictureKey === null)
      );
    case 'DisappearingTimerSet':
      return signed.kind === 'timer-set' && signed.timerSeconds === decision.data.seconds;
    default: {
      const unhandled: never = decision;
      return unhandled;
    }
  }
};

/**
 * A change to an existing chat: refused unsigned once the group's state is signed; signed, it
 * must be the caller's, say what the request does and extend the group's newest signed change
 * under the fold's rules.
 */
export const checkGroupChangeSignature = async (
  caller: { userId: string; chatId: string; now: number },
  state: GroupState,
  decision: GroupDecision,
  signed: SignedGroupChangeData | undefined,
) => {
  if (!signed) {
    if (state.signedHead)
      throw new DomainError(
        'GROUP_CHANGE_UNSIGNED',
        "This group's changes are signed: send the change signed",
      );
    return;
  }
  if (!state.isGroup) throw invalid("Only a group's changes are signed");
  await checkOwnership(signed, caller);
  if (!matchesDecision(signed, decision)) throw invalid('The signed change is not the change requested');
  const head = state.signedHead;
  if (!head)
    throw new DomainError('GROUP_CHANGE_NOT_HEAD', "The group's state is not signed yet: sign it first");
  mustApply(
    {
      groupId: caller.chatId,
      seq: head.seq,
      members: state.members,
      admins: state.admins,
      name: state.name,
      pictureHash: null,
      timerSeconds: state.disappearingSeconds,
      hash: head.hash,
      at: head.at,
    },
    signed,
  );
};

/** A creation signed by its creator: the members (creator first) and the name as requested. */
export const checkSignedCreation = async (
  caller: { userId: string; now: number },
  request: { name: string; members: readonly string[] },
  signed: SignedGroupChangeData,
) => {
  await checkOwnership(signed, { ...caller, chatId: signed.groupId });
  if (
    signed.kind !== 'created' ||
    signed.name !== request.name ||
    !sameIds(signed.memberIds, request.members)
  )
    throw invalid('The signed change is not the group requested');
  mustApply(null, signed);
};

/** An admin's snapshot of a group whose state is not signed yet: the state exactly as the service holds it. */
export const checkSignedSnapshot = async (
  caller: { userId: string; chatId: string; now: number },
  state: GroupState,
  signed: SignedGroupChangeData,
) => {
  if (!state.isGroup) throw invalid("Only a group's state is signed");
  if (state.signedHead) throw new DomainError('GROUP_CHANGE_NOT_HEAD', "The group's state is signed already");
  if (!state.admins.includes(caller.userId))
    throw new DomainError('FORBIDDEN', 'Only a group admin can do that');
  await checkOwnership(signed, caller);
  if (
    signed.kind !== 'snapshot' ||
    !sameIds(signed.memberIds, state.members) ||
    !sameIds(signed.adminIds, state.admins) ||
    signed.name !== state.name ||
    signed.timerSeconds !== state.disappearingSeconds
  )
    throw invalid("The signed snapshot is not the group's state");
  mustApply(null, signed);
};
