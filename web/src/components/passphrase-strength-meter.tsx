import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { minPassphraseScore, type PassphraseStrength } from '../lib/passphrase-strength.ts';

const levels = ['veryWeak', 'weak', 'fair', 'strong', 'veryStrong'] as const;

interface PassphraseStrengthMeterProps {
  /** Null while nothing is typed (or the estimator is still loading). */
  strength: PassphraseStrength | null;
  /** Said before the estimator's feedback (the account password typed again). */
  note: string | null;
}

/**
 * The passphrase's strength as a meter (0-4) named "Passphrase strength" whose value is read out
 * as a word, and the estimator's warning and suggestions, announced politely as they change.
 */
export const PassphraseStrengthMeter = ({ strength, note }: PassphraseStrengthMeterProps) => {
  const { t } = useTranslation();
  const labelId = useId();
  const score = strength?.score ?? 0;
  const level = t(`passphrase.strength.${levels[score]!}`);
  const enough = strength !== null && score >= minPassphraseScore && !note;
  return (
    <div className="strength" data-testid="passphrase-strength">
      <div className="strength__bar">
        <span id={labelId}>{t('passphrase.strength.label')}</span>
        <meter
          aria-labelledby={labelId}
          aria-valuetext={strength ? level : t('passphrase.strength.none')}
          min={0}
          max={4}
          low={2}
          high={minPassphraseScore}
          optimum={4}
          value={score}
        />
        <span className={enough ? 'strength__level strength__level--ok' : 'strength__level'}>
          {strength ? level : ''}
        </span>
      </div>
      <div aria-live="polite" className="strength__feedback">
        {note && <p className="form__error">{note}</p>}
        {strength?.warning && <p>{t(`passphrase.warnings.${strength.warning}`)}</p>}
        {strength && strength.suggestions.length > 0 && (
          <ul>
            {strength.suggestions.map((suggestion) => (
              <li key={suggestion}>{t(`passphrase.suggestions.${suggestion}`)}</li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
};
