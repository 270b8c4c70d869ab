import { useTranslation } from 'react-i18next';
import { dismissUnknownEntry } from '../features/keys/made-entries-store.ts';
import {
  selectOwnLogChecked,
  selectUnknownOwnEntries,
  unknownEntryDismissed,
} from '../features/keys/own-log.slice.ts';
import { selectCurrentUser } from '../lib/session.slice.ts';
import { useAppDispatch, useAppSelector } from './hooks.ts';

/**
 * The alert for entries of the account's own key log that none of its browsers made
 * (`own-log-monitor.ts`), one per entry, on every page until dismissed.
 */
export const OwnLogAlert = () => {
  const entries = useAppSelector(selectUnknownOwnEntries);
  const checked = useAppSelector(selectOwnLogChecked);
  const userId = useAppSelector(selectCurrentUser)?._id;
  const dispatch = useAppDispatch();
  const { t, i18n } = useTranslation();
  if (!userId) return null;
  // The marker tells a reader of the page (and the browser tests) that the check has run.
  const marker = checked && <div hidden data-own-log-checked="" />;
  if (entries.length === 0) return marker;
  const dismiss = (hash: string) => {
    dispatch(unknownEntryDismissed(hash));
    dismissUnknownEntry(userId, hash).catch((error: unknown) =>
      console.warn('Could not store the dismissal', error),
    );
  };
  return (
    <section className="own-log-alerts" aria-label={t('ownLog.region')}>
      {marker}
      {entries.map((entry) => (
        <div key={entry.hash} className="status status--error own-log-alert" role="alert">
          <p>
            <strong>
              {t('ownLog.title', { date: new Date(entry.at).toLocaleString(i18n.resolvedLanguage) })}
            </strong>{' '}
            {t('ownLog.text')}
          </p>
          <button type="button" className="button" onClick={() => dismiss(entry.hash)}>
            {t('ownLog.dismiss')}
          </button>
        </div>
      ))}
    </section>
  );
};
