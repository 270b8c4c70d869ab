import { useTranslation } from 'react-i18next';
import { safetyNumber, safetyNumberGroups } from '@veil/crypto';
import QRCode from 'qrcode';
import { useEffect, useState } from 'react';
import { ModalDialog } from '../../../components/modal-dialog.tsx';
import {
  markContactVerified,
  unmarkContactVerified,
  type ContactKeys,
  checkedKeysOf,
} from '../../keys/index.ts';

interface SafetyNumberDialogProps {
  myId: string;
  contact: { _id: string; username: string };
  keys: Extract<ContactKeys, { kind: 'checked' }>;
  onClose: () => void;
  /** The verification was marked or removed. */
  onChanged: () => void;
}

type Computed =
  | { kind: 'loading' }
  | { kind: 'ready'; digits: string; qr: string; contactSigningKey: string }
  | { kind: 'unavailable'; why: string };

/**
 * "Verify safety number": the 60 digits both people see for each other (Signal's scheme over
 * both accounts' encryption and signing keys), in groups of 5, and as a QR code. If they match
 * when compared in person or over a trusted channel, the user marks the contact verified; a later
 * key change removes the mark.
 */
export const SafetyNumberDialog = ({ myId, contact, keys, onClose, onChanged }: SafetyNumberDialogProps) => {
  const [computed, setComputed] = useState<Computed>({ kind: 'loading' });
  const [busy, setBusy] = useState(false);
  const { t, i18n } = useTranslation();
  const contactSigningKey = keys.current.signingKey;
  const contactEncryptionKey = keys.current.encryptionKey;

  useEffect(() => {
    let live = true;
    const compute = async (): Promise<Computed> => {
      if (!contactSigningKey)
        return { kind: 'unavailable', why: t('safety.noContactKey', { name: contact.username }) };
      // The account's own keys as its checked key log names them, as the contact's are.
      const mine = await checkedKeysOf(myId, myId);
      if (!mine.signingKey) return { kind: 'unavailable', why: t('safety.noOwnKey') };
      const digits = await safetyNumber(
        { userId: myId, encryptionKey: mine.encryptionKey, signingKey: mine.signingKey },
        { userId: contact._id, encryptionKey: contactEncryptionKey, signingKey: contactSigningKey },
      );
      const qr = await QRCode.toDataURL(digits, { errorCorrectionLevel: 'M', margin: 2 });
      return { kind: 'ready', digits, qr, contactSigningKey };
    };
    compute().then(
      (result) => live && setComputed(result),
      () => live && setComputed({ kind: 'unavailable', why: t('safety.failed') }),
    );
    return () => {
      live = false;
    };
  }, [myId, contact._id, contact.username, contactEncryptionKey, contactSigningKey, t]);

  const toggle = async () => {
    if (computed.kind !== 'ready') return;
    setBusy(true);
    try {
      if (keys.verified) await unmarkContactVerified(myId, contact._id);
      else
        await markContactVerified(myId, contact._id, {
          encryptionKey: contactEncryptionKey,
          signingKey: computed.contactSigningKey,
        });
      onChanged();
    } finally {
      setBusy(false);
    }
  };

  return (
    <ModalDialog labelledBy="safety-number-title" onClose={onClose}>
      <div className="form">
        <h2 id="safety-number-title">{t('safety.title')}</h2>
        <p className="panel__hint">{t('safety.hint', { name: contact.username })}</p>
        <p className="panel__hint">{t('safety.coversCalls')}</p>
        {keys.verificationLostAt && (
          <p className="status status--error" role="status">
            {t('safety.keyChanged', {
              name: contact.username,
              date: new Date(keys.verificationLostAt).toLocaleDateString(i18n.resolvedLanguage),
            })}
          </p>
        )}
        {computed.kind === 'loading' && <p role="status">{t('safety.computing')}</p>}
        {computed.kind === 'unavailable' && <p className="panel__hint">{computed.why}</p>}
        {computed.kind === 'ready' && (
          <>
            <p className="safety-number__digits" data-testid="safety-number" aria-label={t('safety.number')}>
              {safetyNumberGroups(computed.digits).map((group, index) => (
                <span key={index}>{group}</span>
              ))}
            </p>
            <img
              className="safety-number__qr"
              src={computed.qr}
              alt={t('safety.qr', { name: contact.username })}
            />
          </>
        )}
        <p data-testid="verification-state">
          {keys.verified
            ? t('safety.verified', { name: contact.username })
            : t('safety.notVerified', { name: contact.username })}
        </p>
        <div className="form__actions">
          {computed.kind === 'ready' && (
            <button
              type="button"
              className="button button--primary"
              onClick={() => void toggle()}
              disabled={busy}
            >
              {keys.verified ? t('safety.unmark') : t('safety.mark')}
            </button>
          )}
          <button type="button" className="button" onClick={onClose}>
            {t('common.close')}
          </button>
        </div>
      </div>
    </ModalDialog>
  );
};
