import { useTranslation } from 'react-i18next';
import type { AttachmentRef } from '@veil/crypto';
import { useEffect, useRef, useState } from 'react';
import { errorText } from '../../lib/api-error.ts';
import { formatPercent, formatSize } from '../../lib/i18n.ts';
import { decryptAttachment, saveBlob } from './download-file.ts';
import { Lightbox } from './lightbox.tsx';
import { thumbnailUrl } from './thumbnail.ts';

const opensInLightbox = (ref: AttachmentRef) => /^(image|video|audio)\//.test(ref.type);

/** A file card: name, size, and a download decrypted in the browser. */
const FileCard = ({ attachment, onOpen }: { attachment: AttachmentRef; onOpen: (() => void) | null }) => {
  const { t } = useTranslation();
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState('');
  const download = async () => {
    setError('');
    setProgress(0);
    try {
      saveBlob(await decryptAttachment(attachment, setProgress), attachment.name);
    } catch (failure) {
      setError(errorText(failure) || t('files.downloadFailed'));
    } finally {
      setProgress(null);
    }
  };
  return (
    <div className="attachment attachment--file" data-testid="attachment-file">
      <span className="attachment__name">{attachment.name}</span>
      <span className="attachment__size">{formatSize(attachment.size)}</span>
      {onOpen && (
        <button type="button" className="button" onClick={onOpen}>
          {t('files.play')}
        </button>
      )}
      <button
        type="button"
        className="button"
        aria-label={t('files.downloadName', { name: attachment.name })}
        disabled={progress !== null}
        onClick={() => void download()}
      >
        {progress === null ? t('files.download') : formatPercent(progress)}
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
  const { t } = useTranslation();
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
            aria-label={t('files.open', { name: attachment.name })}
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
