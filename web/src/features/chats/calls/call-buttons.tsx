import { useTranslation } from 'react-i18next';
import type { CallMedia } from '@veil/crypto';
import { PhoneIcon, VideoIcon } from '../../../components/icons.tsx';
import { startCall } from './call-engine.ts';
import { busyWithACall } from './call-store.ts';
import { useCalls } from './call-view.tsx';

/** Voice and video call buttons for a chat's header: icons, named for screen readers. */
export const StartCallButtons = ({
  name,
  busy,
  onStart,
}: {
  name: string;
  busy: boolean;
  onStart: (media: CallMedia) => void;
}) => {
  const { t } = useTranslation();
  return (
    <>
      {(['audio', 'video'] as const).map((media) => (
        <button
          key={media}
          type="button"
          className="button chat-header__call"
          disabled={busy}
          aria-label={t(media === 'audio' ? 'calls.voiceCallTo' : 'calls.videoCallTo', { name })}
          title={t(media === 'audio' ? 'calls.voiceCall' : 'calls.videoCall')}
          onClick={() => onStart(media)}
        >
          {media === 'audio' ? <PhoneIcon /> : <VideoIcon />}
        </button>
      ))}
    </>
  );
};

/** A one-to-one chat's call buttons. */
export const CallButtons = ({
  chatId,
  peerId,
  peerName,
}: {
  chatId: string;
  peerId: string;
  peerName: string;
}) => {
  const busy = busyWithACall(useCalls());
  return (
    <StartCallButtons
      name={peerName}
      busy={busy}
      onStart={(media) => void startCall(chatId, peerId, media)}
    />
  );
};
