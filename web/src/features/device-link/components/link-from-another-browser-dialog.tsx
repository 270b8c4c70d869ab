import { ModalDialog } from '../../../components/modal-dialog.tsx';
import { useCountdown } from '../../../lib/use-countdown.ts';
import { useNewBrowserLink } from '../hooks/use-new-browser-link.ts';
import type { LinkState } from '../link-session.ts';
import { ConfirmationDigits } from './confirmation-digits.tsx';
import { LinkProgress } from './link-progress.tsx';
import { QrImage } from './qr-image.tsx';

const minutesAndSeconds = (seconds: number) =>
  `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;

const WaitingForScan = ({ code, expiresAt }: { code: string; expiresAt: number }) => {
  const secondsLeft = useCountdown(expiresAt);
  return (
    <>
      <p className="panel__hint">
        On a browser where you are logged in to Veil, open <strong>Profile</strong> and choose{' '}
        <strong>Link a new browser</strong>. Scan this QR code there, or type the code below it.
      </p>
      <QrImage text={code} label="QR code of the link code" />
      <p className="recovery-key link-code" data-testid="link-code" aria-label="Link code">
        {code}
      </p>
      <p className="panel__hint" role="timer" aria-live="off">
        Expires in {minutesAndSeconds(secondsLeft)}
      </p>
    </>
  );
};

const NewBrowserStep = ({ state, onStartAgain }: { state: LinkState; onStartAgain: () => void }) => {
  switch (state.step) {
    case 'starting':
      return <LinkProgress label="Opening a link" />;
    case 'waiting':
      return <WaitingForScan code={state.code} expiresAt={state.expiresAt} />;
    case 'confirm':
      return (
        <>
          <p className="panel__hint">
            The other browser shows a code too. Check that it is this one, then confirm there:
          </p>
          <ConfirmationDigits digits={state.confirmation} />
          <p className="panel__hint">
            If the digits differ, cancel on both browsers: someone may be interfering.
          </p>
        </>
      );
    case 'transferring':
      return <LinkProgress label="Receiving your keys" />;
    case 'done':
      return (
        <p className="status status--success" role="status">
          This browser now has your keys: your messages can be read here.
        </p>
      );
    case 'expired':
    case 'refused':
      return (
        <>
          <p className="form__error" role="alert">
            {state.step === 'expired' ? 'This link has expired before it was used.' : state.message}
          </p>
          <button type="button" className="button button--primary" onClick={onStartAgain}>
            Start again
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
  return (
    <ModalDialog labelledBy="link-title" onClose={onClose} className="panel panel--wide">
      <div className="form link-dialog">
        <h2 id="link-title">Link from another browser</h2>
        <NewBrowserStep state={state} onStartAgain={startAgain} />
        <div className="form__actions">
          <button
            type="button"
            className={state.step === 'done' ? 'button button--primary' : 'button'}
            onClick={onClose}
          >
            {state.step === 'done' ? 'Done' : 'Cancel'}
          </button>
        </div>
      </div>
    </ModalDialog>
  );
};
