import type { AttachmentUploads } from './use-attachment-uploads.ts';

/** The files picked for the next message: progress, cancel, and resume after a failure. */
export const UploadTray = ({ uploads }: { uploads: AttachmentUploads }) => {
  if (uploads.items.length === 0) return null;
  return (
    <ul className="upload-tray" aria-label="Files to send">
      {uploads.items.map((item) => (
        <li key={item.id} className="upload-tray__item" data-state={item.state}>
          <span className="upload-tray__name">{item.name}</span>
          <progress
            className="upload-tray__bar"
            value={item.progress}
            max={1}
            aria-label={`Uploading ${item.name}`}
          />
          <span className="upload-tray__status" aria-live="polite">
            {item.state === 'failed'
              ? item.error
              : item.state === 'done'
                ? 'Ready'
                : `${Math.floor(item.progress * 100)} %`}
          </span>
          {item.state === 'failed' && (
            <button type="button" className="button" onClick={() => uploads.resume(item.id)}>
              Resume
            </button>
          )}
          <button
            type="button"
            className="button"
            aria-label={`Cancel upload of ${item.name}`}
            onClick={() => uploads.cancel(item.id)}
          >
            Cancel
          </button>
        </li>
      ))}
    </ul>
  );
};
