/** The attachments feature's public entry point: other features import it only from here. */
export { AttachmentPicker } from './attachment-picker.tsx';
export { AttachmentList } from './attachment-view.tsx';
export { UploadTray } from './upload-tray.tsx';
export { maxFilesPerMessage, useAttachmentUploads } from './use-attachment-uploads.ts';
