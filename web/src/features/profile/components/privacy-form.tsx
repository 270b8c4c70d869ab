import type { Privacy } from '@veil/contracts';
import { useState } from 'react';
import { Spinner } from '../../../components/spinner.tsx';
import { errorText } from '../../../lib/api-error.ts';
import { useGetPrivacyQuery, useSetPrivacyMutation } from '../api/privacy.api.ts';
import { StatusMessage, type Status } from './status-message.tsx';

/** What this account shares. Each switch is saved as it is changed. */
export const PrivacyForm = () => {
  const { data: privacy, isLoading, isError } = useGetPrivacyQuery();
  const [setPrivacy, { isLoading: saving }] = useSetPrivacyMutation();
  const [status, setStatus] = useState<Status>(null);

  const change = async (next: Partial<Privacy>) => {
    if (!privacy) return;
    setStatus(null);
    try {
      await setPrivacy({ ...privacy, ...next }).unwrap();
      setStatus({ kind: 'success', text: 'Privacy settings saved' });
    } catch (failure) {
      setStatus({ kind: 'error', text: 'Privacy settings were not saved', detail: errorText(failure) });
    }
  };

  return (
    <section className="form profile-card" aria-labelledby="privacy-title">
      <h2 id="privacy-title">Privacy</h2>
      {isLoading ? (
        <Spinner label="Loading privacy settings" />
      ) : isError || !privacy ? (
        <p className="form__error" role="alert">
          Privacy settings could not be loaded.
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
              Send read receipts
              <small>
                When off, nobody sees when you have read their messages, and you do not see theirs.
              </small>
            </span>
          </label>
          <label className="privacy__switch">
            <input
              type="checkbox"
              checked={privacy.typing}
              onChange={(event) => void change({ typing: event.target.checked })}
            />
            <span>Show when I am typing</span>
          </label>
          <label className="privacy__choice">
            Who sees when I am online
            <select
              value={privacy.onlineVisibleTo}
              onChange={(event) =>
                void change({ onlineVisibleTo: event.target.value as Privacy['onlineVisibleTo'] })
              }
            >
              <option value="contacts">My contacts</option>
              <option value="nobody">Nobody</option>
            </select>
          </label>
        </fieldset>
      )}
      <StatusMessage status={status} />
    </section>
  );
};
