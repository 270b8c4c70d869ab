import { useTranslation } from 'react-i18next';
import type { AttachmentRef } from '@veil/crypto';
import { useEffect, useId, useState } from 'react';
import { ModalDialog } from '../../components/modal-dialog.tsx';
import { Spinner } from '../../components/spinner.tsx';
import { errorText } from '../../lib/api-error.ts';
import { formatPercent } from '../../lib/i18n.ts';
import { decryptAttachment, saveBlob } from './download-file.ts';

/**
 * The full image, video or audio, decrypted in the browser, in a large modal dialog with
 * Download: Escape or Close closes it and focus goes back to what opened it (the dialog element
 * restores it).
 */
export const Lightbox = ({ attachment, onClose }: { attachment: AttachmentRef; onClose: () => void }) => {
  const { t } = useTranslation();
  const titleId = useId();
  const [opened, setOpened] = useState<{ url: string; blob: Blob } | null>(null);
  const url = opened?.url ?? null;
  const [progress, setProgress] = useState(0);
  const [error, setError] = useState('');

  useEffect(() => {
    const controller = new AbortController();
    let made: string | null = null;
    decryptAttachment(attachment, setProgress, controller.signal).then(
      (blob) => {
        made = URL.createObjectURL(blob);
        setOpened({ url: made, blob });
      },
      (failure: unknown) =>
        !controller.signal.aborted && setError(errorText(failure) || t('files.openFailed')),
    );
    return () => {
      controller.abort();
      if (made) URL.revokeObjectURL(made);
    };
  }, [attachment]);

  const kind = attachment.type.split('/')[0];
  return (
    <ModalDialog labelledBy={titleId} onClose={onClose} className="panel lightbox">
      <div className="lightbox__header">
        <h2 id={titleId} className="lightbox__title">
          {attachment.name}
        </h2>
        {/* The file as it was sent, from what this dialog already decrypted: no second download. */}
        <button
          type="button"
          className="button"
          disabled={!opened}
          onClick={() => opened && saveBlob(opened.blob, attachment.name)}
        >
          {t('files.download')}
        </button>
        <button type="button" className="button" onClick={onClose}>
          {t('common.close')}
        </button>
      </div>
      {error ? (
        <p className="form__error" role="alert">
          {error}
        </p>
      ) : !url ? (
        <Spinner label={t('files.decrypting', { percent: formatPercent(progress) })} />
      ) : kind === 'video' ? (
        <video className="lightbox__media" src={url} controls autoPlay />
      ) : kind === 'audio' ? (
        <audio className="lightbox__media" src={url} controls autoPlay />
      ) : (
        <img className="lightbox__media" src={url} alt={attachment.name} data-testid="lightbox-image" />
      )}
    </ModalDialog>
  );
};
