import { useTranslation } from 'react-i18next';
import { formatPercent } from '../../lib/i18n.ts';
import type { AttachmentUploads } from './use-attachment-uploads.ts';

/** The files picked for the next message: progress, cancel, and resume after a failure. */
export const UploadTray = ({ uploads }: { uploads: AttachmentUploads }) => {
  const { t } = useTranslation();
  if (uploads.items.length === 0) return null;
  return (
    <ul className="upload-tray" aria-label={t('files.toSend')}>
      {uploads.items.map((item) => (
        <li key={item.id} className="upload-tray__item" data-state={item.state}>
          <span className="upload-tray__name">{item.name}</span>
          <progress
            className="upload-tray__bar"
            value={item.progress}
            max={1}
            aria-label={t('files.uploading', { name: item.name })}
          />
          <span className="upload-tray__status" aria-live="polite">
            {item.state === 'failed'
              ? item.error
              : item.state === 'done'
                ? t('files.ready')
                : formatPercent(item.progress)}
          </span>
          {item.state === 'failed' && (
            <button type="button" className="button" onClick={() => uploads.resume(item.id)}>
              {t('files.resume')}
            </button>
          )}
          <button
            type="button"
            className="button"
            aria-label={t('files.cancelUpload', { name: item.name })}
            onClick={() => uploads.cancel(item.id)}
          >
            {t('common.cancel')}
          </button>
        </li>
      ))}
    </ul>
  );
};
