import type { AttachmentRef } from '@veil/crypto';
import { useEffect, useRef, useState } from 'react';
import { errorText } from '../../../lib/api-error.ts';
import { decryptAttachment, saveBlob } from './download-file.ts';
import { Lightbox } from './lightbox.tsx';
import { thumbnailUrl } from './thumbnail.ts';

const sizeFormat = new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 });
export const readableSize = (bytes: number) =>
  bytes < 1024
    ? `${bytes} B`
    : bytes < 1024 * 1024
      ? `${sizeFormat.format(bytes / 1024)} KB`
      : `${sizeFormat.format(bytes / (1024 * 1024))} MB`;

const opensInLightbox = (ref: AttachmentRef) => /^(image|video|audio)\//.test(ref.type);

/** A file card: name, size, and a download decrypted in the browser. */
const FileCard = ({ attachment, onOpen }: { attachment: AttachmentRef; onOpen: (() => void) | null }) => {
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState('');
  const download = async () => {
    setError('');
    setProgress(0);
    try {
      saveBlob(await decryptAttachment(attachment, setProgress), attachment.name);
    } catch (failure) {
      setError(errorText(failure) || 'The download failed');
    } finally {
      setProgress(null);
    }
  };
  return (
    <div className="attachment attachment--file" data-testid="attachment-file">
      <span className="attachment__name">{attachment.name}</span>
      <span className="attachment__size">{readableSize(attachment.size)}</span>
      {onOpen && (
        <button type="button" className="button" onClick={onOpen}>
          Play
        </button>
      )}
      <button
        type="button"
        className="button"
        aria-label={`Download ${attachment.name}`}
        disabled={progress !== null}
        onClick={() => void download()}
      >
        {progress === null ? 'Download' : `${Math.floor(progress * 100)} %`}
      </button>
      {error && (
        <span className="form__error" role="alert">
          {error}
        </span>
      )}
    </div>
  );
};

/** A message's files: thumbnails that open the full image or video, cards for everything else. */
export const AttachmentList = ({ attachments }: { attachments: AttachmentRef[] }) => {
  const [open, setOpen] = useState<AttachmentRef | null>(null);
  /** What opened the lightbox gets the focus back when it closes. */
  const opener = useRef<HTMLElement | null>(null);
  const show = (attachment: AttachmentRef) => {
    opener.current = document.activeElement as HTMLElement | null;
    setOpen(attachment);
  };
  // After the dialog has closed: while it is open, everything outside it is inert.
  useEffect(() => {
    if (!open) opener.current?.focus();
  }, [open]);
  return (
    <div className="attachments">
      {attachments.map((attachment) =>
        attachment.thumbnail && opensInLightbox(attachment) ? (
          <button
            key={attachment.blobId}
            type="button"
            className="attachment attachment--thumbnail"
            aria-label={`Open ${attachment.name}`}
            onClick={() => show(attachment)}
          >
            <img
              src={thumbnailUrl(attachment.thumbnail)}
              width={attachment.thumbnail.width}
              height={attachment.thumbnail.height}
              alt=""
              data-testid="attachment-thumbnail"
            />
          </button>
        ) : (
          <FileCard
            key={attachment.blobId}
            attachment={attachment}
            onOpen={opensInLightbox(attachment) ? () => show(attachment) : null}
          />
        ),
      )}
      {open && <Lightbox attachment={open} onClose={() => setOpen(null)} />}
    </div>
  );
};
