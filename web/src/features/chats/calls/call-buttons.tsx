import { useTranslation } from 'react-i18next';
import type { CallMedia } from '@veil/crypto';
import { startCall } from './call-engine.ts';
import { useCalls } from './call-center.tsx';

/** Voice and video call buttons for a one-to-one chat's header. */
export const CallButtons = ({
  chatId,
  peerId,
  peerName,
}: {
  chatId: string;
  peerId: string;
  peerName: string;
}) => {
  const { t } = useTranslation();
  const { call } = useCalls();
  const busy = Boolean(call && call.phase !== 'ended');
  const start = (media: CallMedia) => void startCall(chatId, peerId, media);
  return (
    <>
      <button
        type="button"
        className="button"
        disabled={busy}
        aria-label={t('calls.voiceCallTo', { name: peerName })}
        onClick={() => start('audio')}
      >
        {t('calls.voiceCall')}
      </button>
      <button
        type="button"
        className="button"
        disabled={busy}
        aria-label={t('calls.videoCallTo', { name: peerName })}
        onClick={() => start('video')}
      >
        {t('calls.videoCall')}
      </button>
    </>
  );
};
