import { useTranslation } from 'react-i18next';
import type { PublicUser } from '@veil/contracts';
import { useState } from 'react';
import { useAppDispatch, useAppSelector } from '../../../app/hooks.ts';
import { restoreRequested } from '../../keys/index.ts';
import { selectCurrentUser } from '../../../lib/session.slice.ts';
import { useKeySituation } from '../hooks/use-key-situation.ts';
import { CreateBackupDialog } from './create-backup-dialog.tsx';
import { PassphraseDialog } from './passphrase-dialog.tsx';
import { ResetKeysDialog } from './reset-keys-dialog.tsx';

/** The profile's "Message backup" card: what is backed up, and the ways to change it. */
const BackupSettingsFor = ({ user }: { user: PublicUser }) => {
  const dispatch = useAppDispatch();
  const situation = useKeySituation(user._id);
  const [dialog, setDialog] = useState<'create' | 'passphrase' | 'reset' | null>(null);
  const [notice, setNotice] = useState('');
  const { t } = useTranslation();
  if (situation.loading || !situation.status) return null;

  const backup = situation.status.backup;
  const hasPassphrase = backup?.unlocks.includes('passphrase') ?? false;
  const close = (done: string | null) => {
    setDialog(null);
    if (done) setNotice(done);
  };

  return (
    <section className="profile-card backup-settings" aria-labelledby="backup-title">
      <h2 id="backup-title">{t('backup.title')}</h2>
      <p data-testid="backup-state">
        {backup
          ? t(hasPassphrase ? 'backup.backedUpPassphrase' : 'backup.backedUp')
          : t('backup.notBackedUp')}
      </p>
      {backup && situation.status.signingKey && !backup.holdsSigningKey && (
        <p className="panel__hint" data-testid="backup-lacks-signing-key">
          {t('backup.lacksSigningKey')}
          {situation.canBackUp ? ` ${t('backup.makeNew')}` : ''}
        </p>
      )}
      {!situation.holdsKey && (
        <p className="panel__hint">
          {t('backup.noKeyHere')}{' '}
          <button type="button" className="link-button" onClick={() => dispatch(restoreRequested())}>
            {t('backup.restoreIt')}
          </button>
        </p>
      )}
      {notice && (
        <p className="status status--success" role="status">
          {notice}
        </p>
      )}
      <div className="form__actions">
        {situation.canBackUp && (
          <button type="button" className="button" onClick={() => setDialog('create')}>
            {backup ? t('backup.createNew') : t('backup.create')}
          </button>
        )}
        {backup && (
          <button type="button" className="button" onClick={() => setDialog('passphrase')}>
            {hasPassphrase ? t('backup.changePassphrase') : t('backup.addPassphrase')}
          </button>
        )}
        <button type="button" className="button" onClick={() => setDialog('reset')}>
          {t('backup.startFreshLink')}
        </button>
      </div>
      {dialog === 'create' && (
        <CreateBackupDialog
          userId={user._id}
          username={user.username}
          publicKey={situation.status.publicKey}
          signingKey={situation.status.signingKey}
          onClose={(created) => close(created ? t('backup.created') : null)}
        />
      )}
      {dialog === 'passphrase' && (
        <PassphraseDialog hasPassphrase={hasPassphrase} username={user.username} onClose={close} />
      )}
      {dialog === 'reset' && (
        <ResetKeysDialog
          userId={user._id}
          username={user.username}
          onClose={(reset) => close(reset ? t('backup.resetDone') : null)}
        />
      )}
    </section>
  );
};

export const BackupSettings = () => {
  const user = useAppSelector(selectCurrentUser);
  return user ? <BackupSettingsFor key={user._id} user={user} /> : null;
};
