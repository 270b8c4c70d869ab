import type { GroupNotice } from '@veil/contracts';
import type { GroupChangeFailure, VerifiedGroup } from '../../lib/group-chain.ts';

/** A group's verified chain as the screen holds it: `pending` while the server's newer view of it is checked. */
export type ShownGroup = VerifiedGroup & { pending?: boolean };

export type NoticeCheck = { ok: true } | { ok: false; problem: GroupChangeFailure['problem'] };

/**
 * Whether a group's system line stands on a verified signed change (docs/crypto.md, "Signed
 * group state"). A notice is the server's account of a change, matched to the change it
 * recorded by who made it and when. In a signed group, a notice from the chain's start on that
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
  if (group.verified.some(same)) return { ok: true };
  return { ok: false, problem: group.failures.find(same)?.problem ?? 'unsigned' };
};
