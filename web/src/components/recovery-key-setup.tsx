import { recoveryKeyGroupCount, recoveryKeyGroups } from '@veil/crypto';
import { useMemo, useState, type FormEvent } from 'react';
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
    `Veil recovery key for ${username}`,
    '',
    recoveryKey,
    '',
    'It restores your encrypted messages in a new browser. Keep it private and somewhere safe,',
    'outside this browser: Veil cannot recover it for you.',
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

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(recoveryKey);
      setCopied(true);
    } catch {
      setCopied(false); // no clipboard permission: the key is on screen and downloadable
    }
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const mismatches = asked.map((group, i) =>
      sameGroup(typed[i]!, groups[group - 1]!) ? undefined : `This is not group ${group}`,
    ) as [string?, string?];
    const found = withPassphrase ? passphraseErrors(passphrase, repeat) : {};
    setGroupErrors(mismatches);
    setErrors(found);
    if (mismatches.some(Boolean) || Object.keys(found).length > 0) return;
    props.onConfirm({ passphrase: withPassphrase ? passphrase : null });
  };

  return (
    <form className="form recovery-setup" onSubmit={onSubmit} noValidate aria-labelledby={titleId}>
      <h2 id={titleId}>Save your recovery key</h2>
      <p className="panel__hint">
        Your messages can only be read with your private key, which stays in this browser. This recovery key
        restores it in any other browser. Veil cannot recover it for you: keep it somewhere safe, outside this
        browser.
      </p>
      <p className="recovery-key" data-testid="recovery-key" aria-label="Recovery key">
        {recoveryKey}
      </p>
      <div className="form__actions">
        <button type="button" className="button" onClick={() => void copy()}>
          {copied ? 'Copied' : 'Copy'}
        </button>
        <button type="button" className="button" onClick={() => download(username, recoveryKey)}>
          Download (.txt)
        </button>
      </div>
      <fieldset className="recovery-setup__check">
        <legend>
          To check that you saved it, type groups {asked[0]} and {asked[1]}.
        </legend>
        {asked.map((group, i) => (
          <FormField
            key={group}
            label={`Group ${group}`}
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
        <span>Also unlock with a passphrase</span>
      </label>
      {withPassphrase && (
        <>
          <p className="panel__hint">
            Easier to type than the recovery key. Make it long: whoever holds the server&apos;s copy of your
            backup can try to guess it.
          </p>
          <PassphraseFields
            label="Passphrase"
            passphrase={passphrase}
            repeat={repeat}
            errors={errors}
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
            {props.backLabel ?? 'Back'}
          </button>
        )}
      </div>
      {props.onSkip && (
        <p className="panel__hint">
          Without a recovery key, your messages can be read in this browser only.{' '}
          <button type="button" className="link-button" onClick={props.onSkip} disabled={busy}>
            Skip for now
          </button>
        </p>
      )}
    </form>
  );
};
