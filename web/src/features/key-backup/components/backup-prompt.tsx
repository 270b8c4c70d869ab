import { useTranslation } from 'react-i18next';

interface BackupPromptProps {
  onCreate: () => void;
  onDismiss: () => void;
}

/** A gentle note for an account without a backup: its messages live in this browser only. */
export const BackupPrompt = ({ onCreate, onDismiss }: BackupPromptProps) => {
  const { t } = useTranslation();
  return (
    <aside className="backup-prompt" aria-label={t('backup.promptLabel')}>
      <p>
        <strong>{t('backup.promptTitle')}</strong> {t('backup.promptText')}
      </p>
      <div className="form__actions">
        <button type="button" className="button button--primary" onClick={onCreate}>
          {t('backup.create')}
        </button>
        <button type="button" className="button" onClick={onDismiss}>
          {t('backup.notNow')}
        </button>
      </div>
    </aside>
  );
};
