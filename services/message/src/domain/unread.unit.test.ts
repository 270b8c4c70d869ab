import { describe, expect, it } from 'vitest';
import {
  continueUnreadScan,
  newerSeen,
  scanNeedsMore,
  startUnreadScan,
  unreadCountedMax,
  type Reader,
  type TimelineEntry,
} from './unread.ts';

/** Message `n` of a chat between me and them: ids and times order as the messages were sent. */
const message = (n: number, sender = 'them', extra: Partial<TimelineEntry> = {}): TimelineEntry => ({
  _id: `m${String(n).padStart(4, '0')}`,
  sender,
  createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString(),
  encryptedKeys: { me: 'k', them: 'k' },
  ...extra,
});
const me: Reader = { userId: 'me', seenUpTo: null };
const scanOf = (newestFirst: TimelineEntry[], reader = me) =>
  continueUnreadScan(startUnreadScan(), newestFirst, reader);

describe('unread counts', () => {
  it("counts the others' messages and previews the newest", () => {
    const scan = scanOf([message(3), message(2), message(1)]);
    expect(scan).toMatchObject({ count: 3, preview: { _id: 'm0003' } });
    expect(scanNeedsMore(scan)).toBe(true);
  });

  it('stops at the newest message seen, which reads everything before it', () => {
    const scan = scanOf([message(3), message(2), message(1)], { ...me, seenUpTo: message(2)._id });
    expect(scan).toMatchObject({ count: 1, counted: true });
    expect(scanNeedsMore(scan)).toBe(false);
  });

  it("stops at the reader's own message: sending reads the chat", () => {
    const hiddenOwn = message(2, 'me', { hiddenFor: ['me'] });
    expect(scanOf([message(3), message(2, 'me'), message(1)])).toMatchObject({ count: 1, counted: true });
    // Deleting it for oneself later does not make the chat unread again.
    expect(scanOf([message(3), hiddenOwn, message(1)])).toMatchObject({ count: 1, counted: true });
  });

  it('counts neither messages deleted for everyone or for the reader nor ones never keyed for them', () => {
    const scan = scanOf([
      message(4, 'them', { deleted: true, encryptedKeys: {} }),
      message(3, 'them', { hiddenFor: ['me'] }),
      message(2, 'them', { encryptedKeys: { them: 'k' } }),
      message(1),
    ]);
    expect(scan.count).toBe(1);
    // The preview is the newest one the reader still has: a tombstone shows as deleted.
    expect(scan.preview?._id).toBe('m0004');
    expect(scanOf([message(2, 'them', { hiddenFor: ['me'] }), message(1)]).preview?._id).toBe('m0001');
  });

  it('goes on across pages until it is settled, and looks no further than the reader joined', () => {
    const first = scanOf([message(5), message(4)]);
    const settled = continueUnreadScan(first, [message(3, 'me'), message(2)], me);
    expect(settled).toMatchObject({ count: 2, counted: true, preview: { _id: 'm0005' } });
    const joined = scanOf([message(5), message(4), message(3)], { ...me, joinedAt: message(4).createdAt });
    expect(joined).toMatchObject({ count: 2, ended: true });
    expect(scanNeedsMore(joined)).toBe(false);
  });

  it(`counts exactly up to ${unreadCountedMax}, then stops`, () => {
    const many = Array.from({ length: unreadCountedMax + 50 }, (_, i) => message(unreadCountedMax + 50 - i));
    const scan = scanOf(many);
    expect(scan).toMatchObject({ count: unreadCountedMax, counted: true });
    expect(scanNeedsMore(scan)).toBe(false);
  });

  it('keeps the newest seen message: seeing an older one reads nothing more', () => {
    expect(newerSeen(null, 'm0002')).toBe('m0002');
    expect(newerSeen('m0002', 'm0001')).toBe('m0002');
    expect(newerSeen('m0002', 'm0003')).toBe('m0003');
  });
});
