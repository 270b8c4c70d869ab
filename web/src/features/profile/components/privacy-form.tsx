import type { Privacy } from '@veil/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Spinner } from '../../../components/spinner.tsx';
import { errorText } from '../../../lib/api-error.ts';
import { useGetPrivacyQuery, useSetPrivacyMutation } from '../api/privacy.api.ts';
import { StatusMessage, type Status } from './status-message.tsx';

/** What this account shares. Each switch is saved as it is changed. */
export const PrivacyForm = () => {
  const { data: privacy, isLoading, isError } = useGetPrivacyQuery();
  const [setPrivacy, { isLoading: saving }] = useSetPrivacyMutation();
  const [status, setStatus] = useState<Status>(null);
  const { t } = useTranslation();

  const change = async (next: Partial<Privacy>) => {
    if (!privacy) return;
    setStatus(null);
    try {
      await setPrivacy({ ...privacy, ...next }).unwrap();
      setStatus({ kind: 'success', text: t('profile.privacySaved') });
    } catch (failure) {
      setStatus({ kind: 'error', text: t('profile.privacyFailed'), detail: errorText(failure) });
    }
  };

  return (
    <section className="form profile-card" aria-labelledby="privacy-title">
      <h2 id="privacy-title">{t('profile.privacyTitle')}</h2>
      {isLoading ? (
        <Spinner label={t('profile.privacyLoading')} />
      ) : isError || !privacy ? (
        <p className="form__error" role="alert">
          {t('profile.privacyLoadFailed')}
        </p>
      ) : (
        <fieldset className="privacy" disabled={saving}>
          <label className="privacy__switch">
            <input
              type="checkbox"
              checked={privacy.readReceipts}
              onChange={(event) => void change({ readReceipts: event.target.checked })}
            />
            <span>
              {t('profile.readReceipts')}
              <small>{t('profile.readReceiptsHint')}</small>
            </span>
          </label>
          <label className="privacy__switch">
            <input
              type="checkbox"
              checked={privacy.typing}
              onChange={(event) => void change({ typing: event.target.checked })}
            />
            <span>{t('profile.typing')}</span>
          </label>
          <label className="privacy__choice">
            {t('profile.onlineVisibleTo')}
            <select
              value={privacy.onlineVisibleTo}
              onChange={(event) =>
                void change({ onlineVisibleTo: event.target.value as Privacy['onlineVisibleTo'] })
              }
            >
              <option value="contacts">{t('profile.contacts')}</option>
              <option value="nobody">{t('profile.nobody')}</option>
            </select>
          </label>
        </fieldset>
      )}
      <StatusMessage status={status} />
    </section>
  );
};
