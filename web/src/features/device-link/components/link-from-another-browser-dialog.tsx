import { useTranslation } from 'react-i18next';
import { ModalDialog } from '../../../components/modal-dialog.tsx';
import { useCountdown } from '../../../lib/use-countdown.ts';
import { useNewBrowserLink } from '../hooks/use-new-browser-link.ts';
import type { LinkState } from '../link-session.ts';
import { ConfirmationDigits } from './confirmation-digits.tsx';
import { LinkProgress } from './link-progress.tsx';
import { QrImage } from './qr-image.tsx';

const minutesAndSeconds = (seconds: number) =>
  `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;

const WaitingForScan = ({ code, qr, expiresAt }: { code: string; qr: string; expiresAt: number }) => {
  const secondsLeft = useCountdown(expiresAt);
  const { t } = useTranslation();
  return (
    <>
      <p className="panel__hint">
        {t('link.scanHintBefore')} <strong>{t('link.scanHintProfile')}</strong> {t('link.scanHintMiddle')}{' '}
        <strong>{t('link.newTitle')}</strong>. {t('link.scanHintAfter')}
      </p>
      <QrImage text={qr} label={t('link.qr')} />
      <p className="recovery-key link-code" data-testid="link-code" aria-label={t('link.code')}>
        {code}
      </p>
      <p className="panel__hint" role="timer" aria-live="off">
        {t('link.expiresIn', { time: minutesAndSeconds(secondsLeft) })}
      </p>
    </>
  );
};

const NewBrowserStep = ({ state, onStartAgain }: { state: LinkState; onStartAgain: () => void }) => {
  const { t } = useTranslation();
  switch (state.step) {
    case 'starting':
      return <LinkProgress label={t('link.opening')} />;
    case 'waiting':
      return <WaitingForScan code={state.code} qr={state.qr} expiresAt={state.expiresAt} />;
    case 'confirm':
      return (
        <>
          <p className="panel__hint">{t('link.compareNew')}</p>
          <ConfirmationDigits digits={state.confirmation} />
          <p className="panel__hint">{t('link.interfering')}</p>
        </>
      );
    case 'transferring':
      return <LinkProgress label={t('link.receiving')} />;
    case 'done':
      return (
        <p className="status status--success" role="status">
          {t('link.received')}
        </p>
      );
    case 'expired':
    case 'refused':
      return (
        <>
          <p className="form__error" role="alert">
            {state.step === 'expired' ? t('link.expiredNew') : state.message}
          </p>
          <button type="button" className="button button--primary" onClick={onStartAgain}>
            {t('link.startAgain')}
          </button>
        </>
      );
  }
};

/**
 * "Link from another browser": this browser has no key for the account. It shows a code for a
 * logged-in browser of the account to scan or type, the digits to compare, and the outcome.
 */
export const LinkFromAnotherBrowserDialog = ({
  userId,
  onClose,
}: {
  userId: string;
  onClose: () => void;
}) => {
  const { state, startAgain } = useNewBrowserLink(userId);
  const { t } = useTranslation();
  return (
    <ModalDialog labelledBy="link-title" onClose={onClose} className="panel panel--wide">
      <div className="form link-dialog">
        <h2 id="link-title">{t('link.fromOther')}</h2>
        <NewBrowserStep state={state} onStartAgain={startAgain} />
        <div className="form__actions">
          <button
            type="button"
            className={state.step === 'done' ? 'button button--primary' : 'button'}
            onClick={onClose}
          >
            {state.step === 'done' ? t('link.done') : t('common.cancel')}
          </button>
        </div>
      </div>
    </ModalDialog>
  );
};
