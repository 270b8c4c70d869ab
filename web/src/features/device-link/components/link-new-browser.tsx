import { useTranslation } from 'react-i18next';
import type { PublicUser } from '@veil/contracts';
import { lazy, Suspense, useEffect, useState, type FormEvent } from 'react';
import { useAppSelector } from '../../../app/hooks.ts';
import { FormField } from '../../../components/form-field.tsx';
import { canExportAccountKeys, selectKeysVersion } from '../../keys/index.ts';
import { selectCurrentUser } from '../../../lib/session.slice.ts';
import { useOldBrowserLink } from '../hooks/use-old-browser-link.ts';
import type { LinkState } from '../link-session.ts';
import { ConfirmationDigits } from './confirmation-digits.tsx';
import { LinkProgress } from './link-progress.tsx';

/** The camera and its QR decoder load only when someone scans. */
const QrScanner = lazy(() => import('./qr-scanner.tsx').then((module) => ({ default: module.QrScanner })));

const CodeForm = ({ onJoin }: { onJoin: (code: string) => Promise<string | null> }) => {
  const [code, setCode] = useState('');
  const [error, setError] = useState('');
  const [scanning, setScanning] = useState(false);
  const { t } = useTranslation();
  const submit = async (typed: string) => {
    const problem = await onJoin(typed);
    setError(problem ?? '');
    return problem === null;
  };
  /** A scanned QR code that is a link code ends the scanning (the link takes over the card). */
  const onScanned = async (text: string) => {
    const joined = await submit(text);
    if (joined) setScanning(false);
    return joined;
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void submit(code);
  };
  return (
    <form className="form" onSubmit={onSubmit} noValidate>
      <p className="panel__hint">
        {t('link.codeHintBefore')} <strong>{t('link.fromOther')}</strong>. {t('link.codeHintAfter')}
      </p>
      {scanning ? (
        <Suspense fallback={<LinkProgress label={t('link.startingCamera')} />}>
          <QrScanner onText={onScanned} onClose={() => setScanning(false)} />
        </Suspense>
      ) : (
        <FormField
          label={t('link.code')}
          name="link-code"
          value={code}
          onChange={(event) => setCode(event.target.value)}
          autoComplete="off"
          spellCheck={false}
          error={error}
        />
      )}
      <div className="form__actions">
        <button type="submit" className="button button--primary" disabled={!code.trim() || scanning}>
          {t('link.link')}
        </button>
        {!scanning && (
          <button type="button" className="button" onClick={() => setScanning(true)}>
            {t('link.scan')}
          </button>
        )}
      </div>
    </form>
  );
};

interface StepProps {
  state: LinkState;
  onConfirm: () => void;
  onReset: () => void;
}

const OldBrowserStep = ({ state, onConfirm, onReset }: StepProps) => {
  const { t } = useTranslation();
  const again = (label: string) => (
    <div className="form__actions">
      <button type="button" className="button" onClick={onReset}>
        {label}
      </button>
    </div>
  );
  switch (state.step) {
    case 'starting':
    case 'waiting':
      return <LinkProgress label={t('link.joining')} />;
    case 'confirm':
      return (
        <>
          <p className="panel__hint">{t('link.compareOld')}</p>
          <ConfirmationDigits digits={state.confirmation} />
          <div className="form__actions">
            <button type="button" className="button button--primary" onClick={onConfirm}>
              {t('link.match')}
            </button>
            <button type="button" className="button" onClick={onReset}>
              {t('link.differ')}
            </button>
          </div>
        </>
      );
    case 'transferring':
      return <LinkProgress label={t('link.sending')} />;
    case 'done':
      return (
        <>
          <p className="status status--success" role="status">
            {t('link.sent')}
          </p>
          {again(t('link.another'))}
        </>
      );
    case 'expired':
    case 'refused':
      return (
        <>
          <p className="form__error" role="alert">
            {state.step === 'expired' ? t('link.expiredOld') : state.message}
          </p>
          {again(t('link.otherCode'))}
        </>
      );
  }
};

/** The profile's "Link a new browser" card, on a browser that holds the account's keys. */
const LinkNewBrowserFor = ({ user }: { user: PublicUser }) => {
  const { t } = useTranslation();
  const keysVersion = useAppSelector(selectKeysVersion);
  const [canLink, setCanLink] = useState(false);
  const { state, join, confirm, reset } = useOldBrowserLink(user._id);

  useEffect(() => {
    let live = true;
    void canExportAccountKeys(user._id).then((can) => live && setCanLink(can));
    return () => {
      live = false;
    };
  }, [user._id, keysVersion]);

  if (!canLink) return null;
  return (
    <section className="profile-card link-new-browser" aria-labelledby="link-new-browser-title">
      <h2 id="link-new-browser-title">{t('link.newTitle')}</h2>
      {state ? (
        <OldBrowserStep state={state} onConfirm={confirm} onReset={reset} />
      ) : (
        <CodeForm onJoin={join} />
      )}
    </section>
  );
};

export const LinkNewBrowser = () => {
  const user = useAppSelector(selectCurrentUser);
  return user ? <LinkNewBrowserFor key={user._id} user={user} /> : null;
};
