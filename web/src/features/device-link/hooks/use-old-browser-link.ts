import { linkIdOfCode, readLinkQrText } from '@veil/crypto';
import { useEffect, useRef, useState } from 'react';
import { exportAccountKeyBundle, collectAccountState } from '../../keys/index.ts';
import { getSocket } from '../../../lib/realtime.ts';
import { LinkFailure, linkFromOldBrowser, type JoinedLinkSession, type LinkState } from '../link-session.ts';
import { t } from '../../../lib/i18n.ts';

export const notALinkCodeText = () => t('link.notACode');

/**
 * This browser (which holds the account's keys) joins the link whose code was typed or scanned,
 * and sends the keys once the user confirms the digits. `join` answers a code that cannot be one
 * at once, without asking the server.
 */
export const useOldBrowserLink = (userId: string) => {
  const session = useRef<JoinedLinkSession | null>(null);
  const [state, setState] = useState<LinkState | null>(null);

  useEffect(() => () => session.current?.cancel(), []);

  /** `text` is a typed code or a scanned QR text (the code and the new browser's commitment). */
  const join = async (text: string): Promise<string | null> => {
    const scanned = readLinkQrText(text);
    const linkId = scanned && (await linkIdOfCode(scanned.code));
    if (!linkId) return notALinkCodeText();
    session.current?.cancel();
    session.current = linkFromOldBrowser(getSocket(), linkId, {
      exportBundle: async () => {
        const bundle = await exportAccountKeyBundle(userId, await collectAccountState(userId));
        if (!bundle) throw new LinkFailure(t('link.cannotExport'));
        return bundle;
      },
      onState: setState,
      scannedCommitment: scanned.commitment,
    });
    return null;
  };

  const reset = () => {
    session.current?.cancel();
    session.current = null;
    setState(null);
  };

  return { state, join, confirm: () => session.current?.confirm(), reset };
};
