import { useTranslation } from 'react-i18next';
import type { ReportReason } from '@veil/contracts';
import { useId, useState } from 'react';
import { ModalDialog } from '../../components/modal-dialog.tsx';
import { errorText } from '../../lib/api-error.ts';
import { type DisplayMessage, replyPreview } from '../messages/index.ts';
import { useReportMessageMutation, type RevealedMessage } from './reports.api.ts';

const reasons: readonly ReportReason[] = ['harassment', 'threat', 'spam', 'other'];

const revealed = (message: DisplayMessage): RevealedMessage => ({
  messageId: message._id,
  text: message.decryptedContent,
  frankingKey: message.frankingKey!,
});

interface ReportDialogProps {
  message: DisplayMessage;
  senderName: string;
  /** The verifiable messages right before it, oldest first, offered as context. */
  earlier: DisplayMessage[];
  onClose: () => void;
}

/**
 * Reports a message to the server's operators: its text and franking key (and, if the user
 * agrees, those of the few messages before it) go to the server, which checks them against what
 * the sender signed before an operator reads them (docs/crypto.md, "Message franking").
 */
export const ReportDialog = ({ message, senderName, earlier, onClose }: ReportDialogProps) => {
  const { t } = useTranslation();
  const titleId = useId();
  const [reason, setReason] = useState<ReportReason>('harassment');
  const [withEarlier, setWithEarlier] = useState(earlier.length > 0);
  const [report, { isLoading, isSuccess, error }] = useReportMessageMutation();

  const send = () =>
    void report({
      ...revealed(message),
      earlier: withEarlier ? earlier.map(revealed) : [],
      reason,
    });

  return (
    <ModalDialog labelledBy={titleId} onClose={onClose} className="panel report-dialog">
      <h2 id={titleId}>{t('report.title')}</h2>
      <blockquote className="message__quote">{replyPreview(message.decryptedContent)}</blockquote>
      {isSuccess ? (
        <p role="status">{t('report.sent')}</p>
      ) : (
        <form
          className="form"
          onSubmit={(event) => {
            event.preventDefault();
            send();
          }}
        >
          <p>{t('report.explain', { name: senderName })}</p>
          <fieldset className="report-dialog__reasons">
            <legend>{t('report.reason')}</legend>
            {reasons.map((value) => (
              <label key={value}>
                <input
                  type="radio"
                  name="reason"
                  value={value}
                  checked={reason === value}
                  onChange={() => setReason(value)}
                />
                {t(`report.reasons.${value}`)}
              </label>
            ))}
          </fieldset>
          {earlier.length > 0 && (
            <label>
              <input
                type="checkbox"
                checked={withEarlier}
                onChange={(e) => setWithEarlier(e.target.checked)}
              />
              {t('report.includeEarlier', { count: earlier.length })}
            </label>
          )}
          {error && (
            <p role="alert" className="form__error">
              {t('report.failed', { reason: errorText(error) })}
            </p>
          )}
          <div className="form__actions">
            <button type="button" className="button" onClick={onClose}>
              {t('common.cancel')}
            </button>
            <button type="submit" className="button button--danger" disabled={isLoading}>
              {isLoading ? t('report.sending') : t('report.send')}
            </button>
          </div>
        </form>
      )}
      {isSuccess && (
        <div className="form__actions">
          <button type="button" className="button" onClick={onClose}>
            {t('common.close')}
          </button>
        </div>
      )}
    </ModalDialog>
  );
};
