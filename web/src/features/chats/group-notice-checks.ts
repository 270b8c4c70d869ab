import type { GroupNotice } from '@veil/contracts';
import type { GroupChangeFailure, VerifiedChange, VerifiedGroup } from '../keys/index.ts';

/** A group's verified chain as the screen holds it: `pending` while the server's newer view of it is checked. */
export type ShownGroup = VerifiedGroup & { pending?: boolean };

/** `mismatch`: the notice names a verified change, but says something else than it signed. */
export type NoticeCheck = { ok: true } | { ok: false; problem: GroupChangeFailure['problem'] | 'mismatch' };

const sameIds = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && [...a].sort().join() === [...b].sort().join();

/** Whether a notice says what its verified change did (the server words notices; the change is signed). */
const saysWhatWasSigned = (notice: GroupNotice, { change, adminsAfter }: VerifiedChange): boolean => {
  const named = notice.members.map((person) => person._id);
  switch (notice.kind) {
    case 'created':
      return change.kind === 'created' && notice.name === change.name;
    case 'added':
      return change.kind === 'members-added' && sameIds(named, change.memberIds);
    case 'removed':
      return change.kind === 'member-removed' && sameIds(named, change.memberIds);
    case 'left':
      return change.kind === 'member-left' && notice.by._id === change.signerId;
    case 'promoted':
      // A promotion, or the admin role a last admin's leaving handed on (computed, not signed).
      return (
        (change.kind === 'admin-promoted' && sameIds(named, change.memberIds)) ||
        (change.kind === 'member-left' && named.every((id) => adminsAfter.includes(id)))
      );
    case 'renamed':
      return change.kind === 'renamed' && notice.name === change.name;
    case 'picture':
      return change.kind === 'picture-changed';
    case 'timer':
      return change.kind === 'timer-set' && (notice.seconds ?? 0) === change.timerSeconds;
  }
};

/**
 * Whether a group's system line stands on a verified signed change (docs/crypto.md, "Signed
 * group state"). A notice is the server's account of a change, matched to the change it
 * recorded by who made it and when, and it must say what that change signed (who was added,
 * the name, the timer). In a signed group, a notice from the chain's start on that
 * matches no verified change is a failure (unsigned, badly signed, or not recorded as a change
 * at all); one before the chain's start is history from before signing, shown as it was. While
 * the chain is first checked, or for a group without one, every notice shows as the server says;
 * while it is checked again, the notices newer than the chain last checked do.
 */
export const noticeCheckOf = (notice: GroupNotice, group: ShownGroup | undefined): NoticeCheck => {
  if (group?.status !== 'signed' || notice.at < group.since) return { ok: true };
  // Newer than the chain last checked, while the chain is checked again: not judged yet.
  if (group.pending && notice.at > group.latest) return { ok: true };
  const same = (change: { by: string; at: string }) => change.by === notice.by._id && change.at === notice.at;
  const verified = group.verified.find(same);
  if (verified)
    return saysWhatWasSigned(notice, verified) ? { ok: true } : { ok: false, problem: 'mismatch' };
  return { ok: false, problem: group.failures.find(same)?.problem ?? 'unsigned' };
};
