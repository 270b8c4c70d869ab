import { recoveryKeyGroupCount, recoveryKeyGroups } from '@veil/crypto';
import { useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { t as translate } from '../lib/i18n.ts';
import { FormField } from './form-field.tsx';
import { PassphraseFields, passphraseErrors, type PassphraseErrors } from './passphrase-fields.tsx';

export interface RecoveryKeyChoice {
  /** A passphrase that opens the backup too, or null for the recovery key alone. */
  passphrase: string | null;
}

interface RecoveryKeySetupProps {
  recoveryKey: string;
  /** Names the downloaded file and its first line. */
  username: string;
  titleId: string;
  confirmLabel: string;
  busy: boolean;
  busyLabel: string;
  error?: string;
  onConfirm: (choice: RecoveryKeyChoice) => void;
  /** Registration lets the user go without a backup (they are asked again later). */
  onSkip?: () => void;
  onBack?: () => void;
  backLabel?: string;
  /** The account password, where this screen knows it (registration): the passphrase must differ. */
  accountPassword?: string;
}

/** Two different groups, numbered from 1, for the user to type back. */
const pickGroups = (): [number, number] => {
  const first = 1 + Math.floor(Math.random() * recoveryKeyGroupCount);
  const second =
    1 + ((first + Math.floor(Math.random() * (recoveryKeyGroupCount - 1))) % recoveryKeyGroupCount);
  return first < second ? [first, second] : [second, first];
};

/** Case, spaces and dashes do not matter when a group is typed back. */
const sameGroup = (typed: string, group: string) => typed.replace(/[\s-]/g, '').toUpperCase() === group;

const fileText = (username: string, recoveryKey: string) =>
  [
    translate('recovery.fileTitle', { name: username }),
    '',
    recoveryKey,
    '',
    translate('recovery.fileHint'),
    '',
  ].join('\n');

const download = (username: string, recoveryKey: string) => {
  const url = URL.createObjectURL(new Blob([fileText(username, recoveryKey)], { type: 'text/plain' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = `veil-recovery-key-${username}.txt`;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 0);
};

/**
 * Shows a new recovery key once, with copy and download, and asks for two of its groups back
 * before going on (so it was really saved); a passphrase can be added as a second way in.
 */
export const RecoveryKeySetup = (props: RecoveryKeySetupProps) => {
  const { recoveryKey, username, titleId, busy } = props;
  const groups = useMemo(() => recoveryKeyGroups(recoveryKey), [recoveryKey]);
  const asked = useMemo(pickGroups, [recoveryKey]);
  const [typed, setTyped] = useState<[string, string]>(['', '']);
  const [groupErrors, setGroupErrors] = useState<[string?, string?]>([]);
  const [withPassphrase, setWithPassphrase] = useState(false);
  const [passphrase, setPassphrase] = useState('');
  const [repeat, setRepeat] = useState('');
  const [errors, setErrors] = useState<PassphraseErrors>({});
  const [copied, setCopied] = useState(false);
  const { t } = useTranslation();

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(recoveryKey);
      setCopied(true);
    } catch {
      setCopied(false); // no clipboard permission: the key is on screen and downloadable
    }
  };

  const context = { username, ...(props.accountPassword ? { accountPassword: props.accountPassword } : {}) };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const mismatches = asked.map((group, i) =>
      sameGroup(typed[i]!, groups[group - 1]!) ? undefined : t('recovery.notGroup', { number: group }),
    ) as [string?, string?];
    const found = withPassphrase ? await passphraseErrors(passphrase, repeat, context) : {};
    setGroupErrors(mismatches);
    setErrors(found);
    if (mismatches.some(Boolean) || Object.keys(found).length > 0) return;
    props.onConfirm({ passphrase: withPassphrase ? passphrase : null });
  };

  return (
    <form
      className="form recovery-setup"
      onSubmit={(e) => void onSubmit(e)}
      noValidate
      aria-labelledby={titleId}
    >
      <h2 id={titleId}>{t('recovery.title')}</h2>
      <p className="panel__hint">{t('recovery.intro')}</p>
      <p className="recovery-key" data-testid="recovery-key" aria-label={t('recovery.key')}>
        {recoveryKey}
      </p>
      <div className="form__actions">
        <button type="button" className="button" onClick={() => void copy()}>
          {copied ? t('recovery.copied') : t('recovery.copy')}
        </button>
        <button type="button" className="button" onClick={() => download(username, recoveryKey)}>
          {t('recovery.download')}
        </button>
      </div>
      <fieldset className="recovery-setup__check">
        <legend>{t('recovery.check', { first: asked[0], second: asked[1] })}</legend>
        {asked.map((group, i) => (
          <FormField
            key={group}
            label={t('recovery.group', { number: group })}
            name={`group-${group}`}
            autoComplete="off"
            spellCheck={false}
            value={typed[i]}
            error={groupErrors[i]}
            onChange={(e) => {
              const value = e.target.value;
              setTyped((now) => (i === 0 ? [value, now[1]] : [now[0], value]));
            }}
          />
        ))}
      </fieldset>
      <label className="checkbox-field">
        <input
          type="checkbox"
          checked={withPassphrase}
          onChange={(event) => setWithPassphrase(event.target.checked)}
        />
        <span>{t('recovery.withPassphrase')}</span>
      </label>
      {withPassphrase && (
        <>
          <p className="panel__hint">{t('recovery.passphraseHint')}</p>
          <PassphraseFields
            label={t('passphrase.label')}
            repeatLabel={t('passphrase.repeat')}
            passphrase={passphrase}
            repeat={repeat}
            errors={errors}
            context={context}
            onPassphrase={setPassphrase}
            onRepeat={setRepeat}
          />
        </>
      )}
      {props.error && (
        <p className="form__error" role="alert">
          {props.error}
        </p>
      )}
      {busy && <progress className="recovery-setup__progress" aria-label={props.busyLabel} />}
      <div className="form__actions">
        <button type="submit" className="button button--primary" disabled={busy}>
          {busy ? props.busyLabel : props.confirmLabel}
        </button>
        {props.onBack && (
          <button type="button" className="button" onClick={props.onBack} disabled={busy}>
            {props.backLabel ?? t('common.back')}
          </button>
        )}
      </div>
      {props.onSkip && (
        <p className="panel__hint">
          {t('recovery.skipHint')}{' '}
          <button type="button" className="link-button" onClick={props.onSkip} disabled={busy}>
            {t('recovery.skip')}
          </button>
        </p>
      )}
    </form>
  );
};
