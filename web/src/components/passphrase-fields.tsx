import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { t } from '../lib/i18n.ts';
import {
  estimatePassphrase,
  isAccountPassword,
  loadStrengthEstimator,
  minPassphraseScore,
  type PassphraseStrength,
} from '../lib/passphrase-strength.ts';
import { PasswordField } from './password-field.tsx';
import { PassphraseStrengthMeter } from './passphrase-strength-meter.tsx';

/** A backup passphrase: long, because whoever holds the server's copy of the backup can guess offline. */
export const minPassphraseLength = 12;

export interface PassphraseErrors {
  passphrase?: string;
  repeat?: string;
}

/** What the passphrase must not be or lean on: the account password (where this screen knows it), the username. */
export interface PassphraseContext {
  username?: string;
  accountPassword?: string;
}

const contextWords = ({ username, accountPassword }: PassphraseContext) =>
  [username, accountPassword].filter((word): word is string => Boolean(word));

/**
 * The rules, checked when the form is sent: at least 12 characters, not the account password,
 * a strength score of at least 3, typed the same twice.
 */
export const passphraseErrors = async (
  passphrase: string,
  repeat: string,
  context: PassphraseContext = {},
): Promise<PassphraseErrors> => {
  const mismatch = passphrase !== repeat ? { repeat: t('passphrase.mismatch') } : {};
  if (passphrase.length < minPassphraseLength)
    return { passphrase: t('passphrase.tooShort', { count: minPassphraseLength }), ...mismatch };
  if (isAccountPassword(passphrase, context.accountPassword))
    return { passphrase: t('passphrase.isAccountPassword'), ...mismatch };
  try {
    const { score } = await estimatePassphrase(passphrase, contextWords(context));
    if (score < minPassphraseScore) return { passphrase: t('passphrase.tooWeak'), ...mismatch };
  } catch {
    return { passphrase: t('passphrase.strengthUnavailable'), ...mismatch };
  }
  return mismatch;
};

/** The strength of what is typed so far, estimated as it changes (null while empty or loading). */
const useStrength = (passphrase: string, context: PassphraseContext) => {
  const [strength, setStrength] = useState<PassphraseStrength | null>(null);
  const words = contextWords(context).join('\n');
  useEffect(() => {
    void loadStrengthEstimator().catch(() => undefined);
  }, []);
  useEffect(() => {
    let current = true;
    if (!passphrase) {
      setStrength(null);
      return;
    }
    // A short pause after the last keystroke: each estimate runs on the page's thread.
    const timer = setTimeout(() => {
      estimatePassphrase(passphrase, words ? words.split('\n') : []).then(
        (found) => current && setStrength(found),
        () => current && setStrength(null),
      );
    }, 150);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [passphrase, words]);
  return strength;
};

interface PassphraseFieldsProps {
  label: string;
  repeatLabel: string;
  passphrase: string;
  repeat: string;
  errors: PassphraseErrors;
  context?: PassphraseContext;
  onPassphrase: (value: string) => void;
  onRepeat: (value: string) => void;
}

/** A new passphrase typed twice, with a strength meter under the first field. */
export const PassphraseFields = ({
  label,
  repeatLabel,
  passphrase,
  repeat,
  errors,
  context = {},
  onPassphrase,
  onRepeat,
}: PassphraseFieldsProps) => {
  const strength = useStrength(passphrase, context);
  const { t: translate } = useTranslation();
  const reused = isAccountPassword(passphrase, context.accountPassword);
  return (
    <>
      <PasswordField
        label={label}
        name="backup-passphrase"
        autoComplete="new-password"
        value={passphrase}
        error={errors.passphrase}
        onChange={(e) => onPassphrase(e.target.value)}
      />
      <PassphraseStrengthMeter
        strength={passphrase ? strength : null}
        note={reused ? translate('passphrase.isAccountPassword') : null}
      />
      <PasswordField
        label={repeatLabel}
        name="backup-passphrase-repeat"
        autoComplete="new-password"
        value={repeat}
        error={errors.repeat}
        onChange={(e) => onRepeat(e.target.value)}
      />
    </>
  );
};
