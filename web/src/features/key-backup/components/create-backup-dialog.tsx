import { scheduleAccountStateUpload, exportableAccountKey, exportableSigningKey } from '../../keys/index.ts';
import { useTranslation } from 'react-i18next';
import { createKeyBackup, generateRecoveryKey } from '@veil/crypto';
import { useState } from 'react';
import { ModalDialog } from '../../../components/modal-dialog.tsx';
import { RecoveryKeySetup, type RecoveryKeyChoice } from '../../../components/recovery-key-setup.tsx';
import { errorText } from '../../../lib/api-error.ts';
import { useStoreKeyBackupMutation } from '../api/key-backup.api.ts';

interface CreateBackupDialogProps {
  userId: string;
  username: string;
  /** The account's published keys: the ones backed up. */
  publicKey: string;
  signingKey: string | null;
  onClose: (created: boolean) => void;
}

/**
 * A new recovery key for an account whose key this browser holds: the keys' sealed copies are
 * unsealed in memory, encrypted into a backup and dropped. Replaces any earlier backup (and so
 * the earlier recovery key and passphrase).
 */
export const CreateBackupDialog = ({
  userId,
  username,
  publicKey,
  signingKey: signingPublicKey,
  onClose,
}: CreateBackupDialogProps) => {
  const [recoveryKey] = useState(generateRecoveryKey);
  const [store] = useStoreKeyBackupMutation();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const { t } = useTranslation();

  const create = async ({ passphrase }: RecoveryKeyChoice) => {
    setBusy(true);
    setError('');
    try {
      const privateKey = await exportableAccountKey(userId, publicKey);
      if (!privateKey) throw new Error(t('backup.cannotBackUp'));
      // The whole bundle: the signing key too, when this browser holds the published one.
      const signingKey = signingPublicKey ? await exportableSigningKey(userId, signingPublicKey) : null;
      await store(
        await createKeyBackup({ privateKey, publicKey, signingKey, recoveryKey, passphrase }),
      ).unwrap();
      // The new backup carries what this browser trusts from now on.
      scheduleAccountStateUpload(userId);
      onClose(true);
    } catch (failure) {
      setError(errorText(failure) || t('backup.saveFailed'));
      setBusy(false);
    }
  };

  return (
    <ModalDialog
      labelledBy="create-backup-title"
      onClose={() => onClose(false)}
      className="panel panel--wide"
    >
      <RecoveryKeySetup
        recoveryKey={recoveryKey}
        username={username}
        titleId="create-backup-title"
        confirmLabel={t('backup.save')}
        busy={busy}
        busyLabel={t('backup.saving')}
        error={error}
        onConfirm={(choice) => void create(choice)}
        onBack={() => onClose(false)}
        backLabel={t('common.cancel')}
      />
    </ModalDialog>
  );
};
