import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { onRewrapProgress, rewrapProgress } from '../features/keys/own-key-rewrap.ts';

/**
 * Under the top bar while this browser makes older messages readable with the account's new key
 * (after a reset), with how far it is, and once when it is done: it decrypts and re-seals the
 * history's message keys, which the user should know happens.
 */
export const RewrapStatus = () => {
  const progress = useSyncExternalStore(onRewrapProgress, rewrapProgress);
  const { t } = useTranslation();
  if (progress.state === 'idle') return null;
  return (
    <p className="connection-banner rewrap-status" role="status" data-testid="rewrap-status">
      {progress.state === 'working'
        ? t('rewrap.progress', { done: progress.done, total: progress.total })
        : t('rewrap.done', { total: progress.total })}
    </p>
  );
};
