import type { GroupNotice } from '@veil/contracts';
import { describe, expect, it } from 'vitest';
import type { VerifiedGroup } from '../keys/index.ts';
import { noticeCheckOf } from './group-notice-checks.ts';

const person = (id: string) => ({ _id: id, username: id, profilePicture: null });
const notice = (kind: GroupNotice['kind'], at: string, by: string, members: string[] = []): GroupNotice => ({
  kind,
  at,
  by: person(by),
  members: members.map(person),
});

const group: VerifiedGroup = {
  status: 'signed',
  state: null,
  snapshot: { by: 'ann', at: '2026-01-05T00:00:00.000Z' },
  since: '2026-01-05T00:00:00.000Z',
  latest: '2026-01-08T00:00:00.000Z',
  verified: [
    {
      by: 'ann',
      at: '2026-01-05T00:00:00.000Z',
      change: { kind: 'snapshot', memberIds: ['ann', 'bob'], name: 'Crew', timerSeconds: 0, signerId: 'ann' },
      adminsAfter: ['ann'],
    },
    {
      by: 'ann',
      at: '2026-01-06T00:00:00.000Z',
      change: { kind: 'members-added', memberIds: ['cat'], name: null, timerSeconds: null, signerId: 'ann' },
      adminsAfter: ['ann'],
    },
  ],
  failures: [
    { by: 'ann', at: '2026-01-07T00:00:00.000Z', problem: 'bad-signature' },
    { by: 'bob', at: '2026-01-08T00:00:00.000Z', problem: 'after-failure' },
  ],
  membership: [],
};

describe("a group notice against the group's verified chain (noticeCheckOf)", () => {
  it('passes a notice of a verified change, and history from before the chain', () => {
    expect(noticeCheckOf(notice('added', '2026-01-06T00:00:00.000Z', 'ann', ['cat']), group)).toEqual({
      ok: true,
    });
    expect(noticeCheckOf(notice('added', '2026-01-02T00:00:00.000Z', 'ann'), group)).toEqual({ ok: true });
  });

  it('fails a notice that names a verified change but says something else than it signed', () => {
    // The server rewords Ann's addition of Cat as an addition of Mal, or as a rename.
    expect(noticeCheckOf(notice('added', '2026-01-06T00:00:00.000Z', 'ann', ['mal']), group)).toEqual({
      ok: false,
      problem: 'mismatch',
    });
    expect(noticeCheckOf(notice('renamed', '2026-01-06T00:00:00.000Z', 'ann'), group)).toEqual({
      ok: false,
      problem: 'mismatch',
    });
  });

  it('fails a notice of a change that failed, with its reason, and one that no change holds', () => {
    expect(noticeCheckOf(notice('timer', '2026-01-07T00:00:00.000Z', 'ann'), group)).toEqual({
      ok: false,
      problem: 'bad-signature',
    });
    expect(noticeCheckOf(notice('left', '2026-01-08T00:00:00.000Z', 'bob'), group)).toEqual({
      ok: false,
      problem: 'after-failure',
    });
    // Another author or time than the verified change's: not that change.
    expect(noticeCheckOf(notice('added', '2026-01-06T00:00:00.000Z', 'bob'), group)).toEqual({
      ok: false,
      problem: 'unsigned',
    });
  });

  it('leaves a notice newer than the chain unjudged while a newer view of the group is checked', () => {
    const arrived = notice('renamed', '2026-01-09T00:00:00.000Z', 'ann');
    expect(noticeCheckOf(arrived, { ...group, pending: true })).toEqual({ ok: true });
    expect(noticeCheckOf(arrived, group)).toEqual({ ok: false, problem: 'unsigned' });
    // What the chain already covers is judged as before.
    expect(
      noticeCheckOf(notice('timer', '2026-01-07T00:00:00.000Z', 'ann'), { ...group, pending: true }),
    ).toEqual({
      ok: false,
      problem: 'bad-signature',
    });
  });

  it('shows every notice as the server says while the chain is checked, or for a group without one', () => {
    const forged = notice('added', '2026-01-09T00:00:00.000Z', 'mal');
    expect(noticeCheckOf(forged, undefined)).toEqual({ ok: true });
    expect(noticeCheckOf(forged, { status: 'unsigned' })).toEqual({ ok: true });
  });
});
