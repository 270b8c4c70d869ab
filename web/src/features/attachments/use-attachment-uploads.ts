import type { AttachmentRef } from '@veil/crypto';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { errorText } from '../../lib/api-error.ts';
import { t } from '../../lib/i18n.ts';
import { makeThumbnail } from './thumbnail.ts';
import { encryptedUpload, type EncryptedUpload } from './upload-file.ts';

/** Files one message may carry (the server's limit too). */
export const maxFilesPerMessage = 10;

export interface PendingUpload {
  id: string;
  name: string;
  /** 0..1 of the encrypted bytes stored. */
  progress: number;
  state: 'uploading' | 'done' | 'failed';
  error?: string;
}

interface Running {
  upload: EncryptedUpload;
  file: File;
  controller: AbortController;
  /** The finished attachment, or null when it failed or was cancelled. */
  result: Promise<AttachmentRef | null>;
}

/**
 * The files picked for the next message in one chat: each is encrypted and uploaded as soon as
 * it is picked, with its progress; it can be cancelled (its stored chunks are removed) or, after
 * a failure, resumed. `finish` waits for them all when the message is sent.
 */
export const useAttachmentUploads = (chatId: string) => {
  const [items, setItems] = useState<PendingUpload[]>([]);
  const running = useRef(new Map<string, Running>());

  const update = useCallback(
    (id: string, change: Partial<PendingUpload>) =>
      setItems((now) => now.map((item) => (item.id === id ? { ...item, ...change } : item))),
    [],
  );

  const start = useCallback(
    (id: string, upload: EncryptedUpload, file: File) => {
      const controller = new AbortController();
      const thumbnail = makeThumbnail(file);
      const result = upload
        .run(
          ({ sentBytes, totalBytes }) => update(id, { progress: totalBytes ? sentBytes / totalBytes : 1 }),
          controller.signal,
        )
        .then(async (ref) => {
          update(id, { state: 'done', progress: 1 });
          const made = await thumbnail;
          return made ? { ...ref, thumbnail: made } : ref;
        })
        .catch((error: unknown) => {
          if (!controller.signal.aborted)
            update(id, { state: 'failed', error: errorText(error) || t('files.uploadFailed') });
          return null;
        });
      running.current.set(id, { upload, file, controller, result });
      update(id, { state: 'uploading' });
    },
    [update],
  );

  const add = useCallback(
    (files: File[]) => {
      const room = maxFilesPerMessage - running.current.size;
      for (const file of files.slice(0, Math.max(0, room))) {
        const id = crypto.randomUUID();
        setItems((now) => [...now, { id, name: file.name, progress: 0, state: 'uploading' }]);
        start(id, encryptedUpload(file, chatId), file);
      }
    },
    [chatId, start],
  );

  const cancel = useCallback((id: string) => {
    const entry = running.current.get(id);
    running.current.delete(id);
    setItems((now) => now.filter((item) => item.id !== id));
    if (!entry) return;
    entry.controller.abort();
    void entry.result.then(() => entry.upload.discard());
  }, []);

  const resume = useCallback(
    (id: string) => {
      const entry = running.current.get(id);
      if (entry) start(id, entry.upload, entry.file);
    },
    [start],
  );

  /** Every picked file, once uploaded; null when one failed (it stays in the list to resume or cancel). */
  const finish = useCallback(async (): Promise<AttachmentRef[] | null> => {
    const results = await Promise.all([...running.current.values()].map((entry) => entry.result));
    return results.every((ref) => ref !== null) ? (results as AttachmentRef[]) : null;
  }, []);

  /** After a send: the files now belong to the message. */
  const clear = useCallback(() => {
    running.current.clear();
    setItems([]);
  }, []);

  // Leaving the chat cancels what was picked there and never sent.
  useEffect(
    () => () => {
      for (const id of [...running.current.keys()]) cancel(id);
    },
    [chatId, cancel],
  );

  return useMemo(
    () => ({ items, add, cancel, resume, finish, clear }),
    [items, add, cancel, resume, finish, clear],
  );
};

export type AttachmentUploads = ReturnType<typeof useAttachmentUploads>;
