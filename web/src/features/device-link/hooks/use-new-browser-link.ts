import { useEffect, useState } from 'react';
import { useAppDispatch } from '../../../app/hooks.ts';
import {
  keepAccountKeyBundle,
  mergeAccountState,
  parseAccountState,
  keysRestored,
} from '../../keys/index.ts';
import { getSocket } from '../../../lib/realtime.ts';
import { linkAsNewBrowser, type LinkState } from '../link-session.ts';

/**
 * This browser (without the account's keys) opens a link while the screen is shown, and again on
 * "Start again". Keys that arrive are stored like restored ones, and every history reads again.
 */
export const useNewBrowserLink = (userId: string) => {
  const dispatch = useAppDispatch();
  const [state, setState] = useState<LinkState>({ step: 'starting' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const session = linkAsNewBrowser(getSocket(), {
      keep: async (bundle) => {
        const state = parseAccountState(await keepAccountKeyBundle(userId, bundle));
        // Before the session's checks run with the new keys: they start from what the account trusted.
        if (state) await mergeAccountState(userId, state, { contacts: true });
        dispatch(keysRestored());
      },
      onState: setState,
    });
    return () => session.cancel();
  }, [userId, attempt, dispatch]);

  return { state, startAgain: () => setAttempt((n) => n + 1) };
};
