/**
 * Encrypted files in messages: the picker, uploads, the upload tray and what a message shows of its files.
 * This file is the feature's public entry point: other features import only from here.
 */
export { AttachmentPicker } from './attachment-picker.tsx';
export { AttachmentList } from './attachment-view.tsx';
export { UploadTray } from './upload-tray.tsx';
export { maxFilesPerMessage, useAttachmentUploads } from './use-attachment-uploads.ts';
