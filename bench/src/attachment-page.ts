import { encryptedUpload } from '../../web/src/features/attachments/upload-file.ts';

/**
 * The page side of the attachment benchmark (bundled for Chromium by attachment-bench.ts): the
 * web client's own upload (read a chunk, encrypt it, PUT it, next) of the file picked in `#file`.
 */
export interface AttachmentPage {
  uploadPicked(chatId: string): Promise<{ ms: number; bytes: number }>;
}

const page = window as unknown as AttachmentPage;
page.uploadPicked = async (chatId) => {
  const file = (document.getElementById('file') as HTMLInputElement).files![0]!;
  const started = performance.now();
  await encryptedUpload(file, chatId).run(() => undefined, new AbortController().signal);
  return { ms: performance.now() - started, bytes: file.size };
};
