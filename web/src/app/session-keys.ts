import { useEffect } from 'react';
import { accountKeys, forgetLoadedKeys } from '../features/keys/account-keys.ts';
import { api } from '../lib/api.ts';
import { uploadAccountState } from '../features/keys/account-state.ts';
import { ensureSignedKeyLog } from '../features/keys/identity-keys.ts';
import { unknownOwnEntries } from '../features/keys/own-log-monitor.ts';
import { ownLogChecked } from '../features/keys/own-log.slice.ts';
import { selectKeysVersion } from '../features/keys/key-backup.slice.ts';
import { rewrapOwnCopies } from '../features/keys/own-key-rewrap.ts';
import { selectCurrentUser } from '../lib/session.slice.ts';
import { useAppDispatch, useAppSelector } from './hooks.ts';

/**
 * At every session start (a login, or a page opened with a stored session) the account's keys
 * are read, which moves an earlier version's browser-wide key to the account if it is this
 * account's. When the session ends, the keys held in memory are dropped (the stored ones stay).
 * An account without a signing key gets one here once this browser holds its key (at once, or
 * after a restore), and an account whose key log's newest entry is unsigned gets a signed one.
 * Then the account's own log is compared with the entries its browsers made (an alert for any
 * other). A browser that still holds a key from before a reset re-wraps the account's copies of
 * old message keys for the current key, in the background.
 */
export const useSessionKeys = () => {
  const userId = useAppSelector(selectCurrentUser)?._id;
  const keysVersion = useAppSelector(selectKeysVersion);
  const dispatch = useAppDispatch();
  useEffect(() => {
    if (!userId) return;
    void accountKeys(userId);
    return forgetLoadedKeys;
  }, [userId]);
  useEffect(() => {
    if (!userId) return;
    let current = true;
    void ensureSignedKeyLog(userId)
      .then(
        async (published) => {
          if (!published) return;
          dispatch(api.util.invalidateTags(['KeyStatus']));
          // At once, not debounced: another browser loading now must find the entry recorded.
          await uploadAccountState(userId).catch((error: unknown) =>
            console.warn('Could not store the account state in the key backup', error),
          );
        },
        (error: unknown) => console.warn('Could not sign the key log', error),
      )
      .then(() => unknownOwnEntries(userId))
      .then(
        (entries) =>
          current && dispatch(ownLogChecked(entries.map(({ hash, at, reason }) => ({ hash, at, reason })))),
        (error: unknown) => console.warn("Could not check the account's own key log", error),
      );
    rewrapOwnCopies(userId).catch((error: unknown) =>
      console.warn('Could not re-wrap message keys for the current key', error),
    );
    return () => {
      current = false;
    };
  }, [userId, keysVersion, dispatch]);
};
