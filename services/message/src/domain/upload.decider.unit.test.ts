import { describe, expect, it } from 'vitest';
import { attachmentStreamId, limits as contractLimits, type AttachmentEvent } from '@veil/contracts';
import { uploadDecider, type UploadState } from './upload.decider.ts';

const code = (c: string) => expect.objectContaining({ code: c });
const megabyte = 1024 * 1024;
const limits = { maxFileBytes: 10 * megabyte, quotaBytes: 50 * megabyte };
/** The encrypted size of a file of `bytes` bytes: each chunk carries a 16-byte tag. */
const encrypted = (bytes: number) =>
  bytes + 16 * Math.max(1, Math.ceil(bytes / (contractLimits.attachmentChunkBytes - 16)));
const start = (overrides: Partial<{ isMember: boolean; size: number; storedBytes: number }> = {}) =>
  ({
    type: 'StartUpload',
    userId: 'alice',
    chatId: 'c',
    blobId: 'b',
    size: encrypted(1000),
    isMember: true,
    storedBytes: 0,
    limits,
    ...overrides,
  }) as const;
const meta = {
  eventId: 'e',
  streamId: attachmentStreamId('b'),
  occurredAt: '2026-01-01T00:00:00.000Z',
  schemaVersion: 1,
};
const fold = (...events: AttachmentEvent[]): UploadState =>
  events.reduce(uploadDecider.evolve, uploadDecider.initialState());
const started: AttachmentEvent = {
  ...meta,
  type: 'AttachmentUploadStarted',
  data: { blobId: 'b', chatId: 'c', uploaderId: 'alice', size: encrypted(1000) },
};
const uploading = fold(started);
const complete = fold(started, { ...meta, type: 'AttachmentUploadCompleted', data: { blobId: 'b' } });
const removed = fold(started, {
  ...meta,
  type: 'AttachmentRemoved',
  data: { blobId: 'b', reason: 'cancelled' },
});

describe('deciding an upload', () => {
  it("starts a member's upload of an encrypted file's size, within the file limit and the quota", () => {
    expect(uploadDecider.decide(start(), uploadDecider.initialState())).toEqual([
      {
        type: 'AttachmentUploadStarted',
        data: { blobId: 'b', chatId: 'c', uploaderId: 'alice', size: encrypted(1000) },
      },
    ]);
    expect(() => uploadDecider.decide(start({ isMember: false }), uploadDecider.initialState())).toThrow(
      code('CHAT_NOT_FOUND'),
    );
    expect(() => uploadDecider.decide(start({ size: 5 }), uploadDecider.initialState())).toThrow(
      code('VALIDATION_FAILED'),
    );
    expect(() =>
      uploadDecider.decide(start({ size: encrypted(11 * megabyte) }), uploadDecider.initialState()),
    ).toThrow(code('PAYLOAD_TOO_LARGE'));
    expect(() =>
      uploadDecider.decide(start({ storedBytes: 50 * megabyte - 10 }), uploadDecider.initialState()),
    ).toThrow(
      expect.objectContaining({
        code: 'PAYLOAD_TOO_LARGE',
        message: 'Your files would pass your storage quota of 50 MB',
      }),
    );
  });

  it("completes only its uploader's upload in progress, once no chunk is missing", () => {
    const complete = (userId: string, missingChunks: number[] = []) =>
      ({ type: 'CompleteUpload', userId, blobId: 'b', missingChunks }) as const;
    expect(uploadDecider.decide(complete('alice'), uploading)).toEqual([
      { type: 'AttachmentUploadCompleted', data: { blobId: 'b' } },
    ]);
    expect(() => uploadDecider.decide(complete('alice', [0, 2]), uploading)).toThrow(
      expect.objectContaining({ message: 'The upload is missing chunks 0, 2' }),
    );
    expect(() => uploadDecider.decide(complete('bob'), uploading)).toThrow(code('NOT_FOUND'));
    expect(() => uploadDecider.decide(complete('alice'), uploadDecider.initialState())).toThrow(
      code('NOT_FOUND'),
    );
    expect(() => uploadDecider.decide(complete('alice'), removed)).toThrow(code('NOT_FOUND'));
  });

  it('cancels its uploader\'s file until a message is sent with it, and answers anyone else "not found"', () => {
    const cancel = (userId: string, sentWithMessage = false) =>
      ({ type: 'CancelUpload', userId, blobId: 'b', sentWithMessage }) as const;
    expect(uploadDecider.decide(cancel('alice'), complete)).toEqual([
      { type: 'AttachmentRemoved', data: { blobId: 'b', reason: 'cancelled' } },
    ]);
    expect(() => uploadDecider.decide(cancel('alice', true), complete)).toThrow(code('VALIDATION_FAILED'));
    expect(() => uploadDecider.decide(cancel('bob'), uploading)).toThrow(code('NOT_FOUND'));
    expect(() => uploadDecider.decide(cancel('alice'), removed)).toThrow(code('NOT_FOUND'));
  });
});
