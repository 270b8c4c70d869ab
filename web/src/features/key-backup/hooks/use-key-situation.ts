import { useEffect, useState } from 'react';
import { useAppSelector } from '../../../app/hooks.ts';
import { accountKeyRing, selectKeysVersion, type StoredPrivateKey } from '../../keys/index.ts';
import { useGetKeyStatusQuery } from '../api/key-backup.api.ts';

/**
 * Where the account's key stands in this browser, against what the server says: whether this
 * browser holds the published key, can still export it (for a backup), and whether a backup
 * exists. `loading` until both sides are known.
 */
export const useKeySituation = (userId: string) => {
  const keysVersion = useAppSelector(selectKeysVersion);
  const { data: status, isError } = useGetKeyStatusQuery();
  const [ring, setRing] = useState<StoredPrivateKey[] | null>(null);

  useEffect(() => {
    let live = true;
    void accountKeyRing(userId).then((keys) => live && setRing(keys));
    return () => {
      live = false;
    };
  }, [userId, keysVersion]);

  const current = status && ring?.find((key) => key.publicKey === status.publicKey);
  return {
    loading: !ring || (!status && !isError),
    status: status ?? null,
    /** This browser can read messages sealed for the account's current key. */
    holdsKey: Boolean(current),
    /** ... and can make a backup of it. */
    canBackUp: Boolean(current?.sealed),
    hasBackup: Boolean(status?.backup),
  };
};
