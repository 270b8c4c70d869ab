import { describe, expect, it } from 'vitest';
import { socketSendSchema } from './socket-payloads.schemas.ts';

describe('socketSendSchema', () => {
  const valid = {
    chatId: '01J00000000000000000000CHAT',
    encryptedMessage: 'QUJDRA==',
    iv: 'AAAAAAAAAAAAAAAA',
    encryptedKeys: { '01J0000000000000000000000A': 'S0VZ' },
  };

  it('keeps only the contract fields (a sender in the payload is dropped, never trusted)', () => {
    expect(socketSendSchema.parse({ ...valid, senderId: 'someone' })).toEqual(valid);
  });

  it('names the first problem', () => {
    const result = socketSendSchema.safeParse({ ...valid, encryptedMessage: 'not base64!' });
    expect(result.error?.issues[0]?.message).toBe('encryptedMessage must be base64');
  });
});
