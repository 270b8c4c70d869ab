import type { PublicUser } from '@veil/contracts';
import { useState } from 'react';
import { useAppDispatch, useAppSelector } from '../../../app/hooks.ts';
import { restoreRequested } from '../../../lib/key-backup.slice.ts';
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
  if (situation.loading || !situation.status) return null;

  const backup = situation.status.backup;
  const hasPassphrase = backup?.unlocks.includes('passphrase') ?? false;
  const close = (done: string | null) => {
    setDialog(null);
    if (done) setNotice(done);
  };

  return (
    <section className="profile-card backup-settings" aria-labelledby="backup-title">
      <h2 id="backup-title">Message backup</h2>
      <p data-testid="backup-state">
        {backup
          ? `Your key is backed up. It opens with your recovery key${hasPassphrase ? ' or your passphrase' : ''}.`
          : 'Your key is not backed up: your messages can be read only in a browser that has it.'}
      </p>
      {backup && situation.status.signingKey && !backup.holdsSigningKey && (
        <p className="panel__hint" data-testid="backup-lacks-signing-key">
          Your backup was made before your account had a signing key, so it does not hold it.
          {situation.canBackUp ? ' Make a new recovery key to back up both keys.' : ''}
        </p>
      )}
      {!situation.holdsKey && (
        <p className="panel__hint">
          This browser has no key for your account.{' '}
          <button type="button" className="link-button" onClick={() => dispatch(restoreRequested())}>
            Restore it
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
            {backup ? 'New recovery key' : 'Create recovery key'}
          </button>
        )}
        {backup && (
          <button type="button" className="button" onClick={() => setDialog('passphrase')}>
            {hasPassphrase ? 'Change passphrase' : 'Add a passphrase'}
          </button>
        )}
        <button type="button" className="button" onClick={() => setDialog('reset')}>
          I lost my key: start fresh
        </button>
      </div>
      {dialog === 'create' && (
        <CreateBackupDialog
          userId={user._id}
          username={user.username}
          publicKey={situation.status.publicKey}
          signingKey={situation.status.signingKey}
          onClose={(created) =>
            close(created ? 'Your new recovery key is saved. It replaces the old one.' : null)
          }
        />
      )}
      {dialog === 'passphrase' && <PassphraseDialog hasPassphrase={hasPassphrase} onClose={close} />}
      {dialog === 'reset' && (
        <ResetKeysDialog
          userId={user._id}
          username={user.username}
          onClose={(reset) =>
            close(reset ? 'Your account has new keys, backed up under your new recovery key.' : null)
          }
        />
      )}
    </section>
  );
};

export const BackupSettings = () => {
  const user = useAppSelector(selectCurrentUser);
  return user ? <BackupSettingsFor key={user._id} user={user} /> : null;
};
