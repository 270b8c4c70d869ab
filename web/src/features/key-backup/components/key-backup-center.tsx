import type { PublicUser } from '@veil/contracts';
import { useEffect, useState } from 'react';
import { useAppDispatch, useAppSelector } from '../../../app/hooks.ts';
import { selectCurrentUser } from '../../../lib/session.slice.ts';
import {
  backupPromptDismissed,
  restoreClosed,
  restoreRequested,
  selectOfferRestore,
  selectPromptDismissed,
  selectRestoreOpen,
} from '../../keys/index.ts';
import { useKeySituation } from '../hooks/use-key-situation.ts';
import { BackupPrompt } from './backup-prompt.tsx';
import { CreateBackupDialog } from './create-backup-dialog.tsx';
import { ResetKeysDialog } from './reset-keys-dialog.tsx';
import { RestoreDialog } from './restore-dialog.tsx';

/**
 * The session's key-backup screens, for whatever page is open. Right after a login, a browser
 * without the account's key opens "Restore your messages" when a backup exists; a browser that
 * holds the key of an account without a backup shows the "Protect your messages" prompt.
 */
const KeyBackupSession = ({ user }: { user: PublicUser }) => {
  const dispatch = useAppDispatch();
  const situation = useKeySituation(user._id);
  const restoreOpen = useAppSelector(selectRestoreOpen);
  const offerRestore = useAppSelector(selectOfferRestore);
  const promptDismissed = useAppSelector(selectPromptDismissed);
  const [creating, setCreating] = useState(false);
  const [resetting, setResetting] = useState(false);

  const shouldRestore = !situation.loading && !situation.holdsKey && situation.hasBackup;
  useEffect(() => {
    if (shouldRestore && offerRestore) dispatch(restoreRequested());
  }, [shouldRestore, offerRestore, dispatch]);

  const showPrompt =
    !situation.loading && situation.canBackUp && !situation.hasBackup && !promptDismissed && !creating;

  return (
    <>
      {showPrompt && (
        <BackupPrompt
          onCreate={() => setCreating(true)}
          onDismiss={() => dispatch(backupPromptDismissed())}
        />
      )}
      {creating && situation.status && (
        <CreateBackupDialog
          userId={user._id}
          username={user.username}
          publicKey={situation.status.publicKey}
          signingKey={situation.status.signingKey}
          onClose={() => setCreating(false)}
        />
      )}
      {restoreOpen && (
        <RestoreDialog
          userId={user._id}
          backup={situation.status ? situation.status.backup : undefined}
          onNotNow={() => dispatch(restoreClosed())}
          onStartFresh={() => {
            dispatch(restoreClosed());
            setResetting(true);
          }}
        />
      )}
      {resetting && (
        <ResetKeysDialog userId={user._id} username={user.username} onClose={() => setResetting(false)} />
      )}
    </>
  );
};

export const KeyBackupCenter = () => {
  const user = useAppSelector(selectCurrentUser);
  return user ? <KeyBackupSession key={user._id} user={user} /> : null;
};
