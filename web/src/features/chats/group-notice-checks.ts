import type { GroupNotice } from '@veil/contracts';
import type { GroupChangeFailure, VerifiedGroup } from '../../lib/group-chain.ts';

export type NoticeCheck = { ok: true } | { ok: false; problem: GroupChangeFailure['problem'] };

/**
 * Whether a group's system line stands on a verified signed change (docs/crypto.md, "Signed
 * group state"). A notice is the server's account of a change, matched to the change it
 * recorded by who made it and when. In a signed group, a notice from the chain's start on that
 * matches no verified change is a failure (unsigned, badly signed, or not recorded as a change
 * at all); one before the chain's start is history from before signing, shown as it was. While
 * the chain is checked, or for a group without one, every notice shows as the server says.
 */
export const noticeCheckOf = (notice: GroupNotice, group: VerifiedGroup | undefined): NoticeCheck => {
  if (group?.status !== 'signed' || notice.at < group.since) return { ok: true };
  const same = (change: { by: string; at: string }) => change.by === notice.by._id && change.at === notice.at;
  if (group.verified.some(same)) return { ok: true };
  return { ok: false, problem: group.failures.find(same)?.problem ?? 'unsigned' };
};
