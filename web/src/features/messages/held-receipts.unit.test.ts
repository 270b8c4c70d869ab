import { describe, expect, it } from 'vitest';
import type { DisplayMessage } from './display-message.ts';
import { holdReceipt, withHeldReceipts } from './held-receipts.ts';

const message = (id: string): DisplayMessage =>
  ({
    _id: id,
    chat: 'c',
    sender: { _id: 'me' },
    content: '',
    iv: '',
    encryptedKeys: {},
    replyTo: null,
    seenBy: {},
    createdAt: '',
    seq: 1,
    decryptedContent: 'x',
  }) as DisplayMessage;

describe('held receipts', () => {
  it('applies a receipt that arrived before its message, once', () => {
    holdReceipt('m1', 'bob');
    holdReceipt('m1', 'carol');
    const [first] = withHeldReceipts([message('m1')]);
    expect(first!.seenBy).toEqual({ bob: true, carol: true });
    const [again] = withHeldReceipts([message('m1')]);
    expect(again!.seenBy).toEqual({});
  });

  it('leaves other messages untouched', () => {
    holdReceipt('m2', 'bob');
    const [other] = withHeldReceipts([message('m3')]);
    expect(other!.seenBy).toEqual({});
  });
});
