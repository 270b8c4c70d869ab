import { useTranslation } from 'react-i18next';
import type { CallMedia } from '@veil/crypto';
import { PhoneIcon, VideoIcon } from '../../../components/icons.tsx';
import { startCall } from './call-engine.ts';
import { useCalls } from './call-view.tsx';

/** Voice and video call buttons for a one-to-one chat's header: icons, named for screen readers. */
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
        className="button chat-header__call"
        disabled={busy}
        aria-label={t('calls.voiceCallTo', { name: peerName })}
        title={t('calls.voiceCall')}
        onClick={() => start('audio')}
      >
        <PhoneIcon />
      </button>
      <button
        type="button"
        className="button chat-header__call"
        disabled={busy}
        aria-label={t('calls.videoCallTo', { name: peerName })}
        title={t('calls.videoCall')}
        onClick={() => start('video')}
      >
        <VideoIcon />
      </button>
    </>
  );
};
