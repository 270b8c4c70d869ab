import { useTranslation } from 'react-i18next';
import { PhoneIcon, VideoIcon } from '../../../components/icons.tsx';
import { useCalls } from './call-view.tsx';
import { joinGroupCall, startGroupCall } from './group-call-engine.ts';

/**
 * A group chat's header: voice and video call buttons, or, while a call is going on in the group
 * that this browser is not in, "Join" (as Signal shows it).
 */
export const GroupCallButtons = ({ chatId, groupName }: { chatId: string; groupName: string }) => {
  const { t } = useTranslation();
  const { call, group, ongoing } = useCalls();
  const going = ongoing[chatId];
  const inThisCall = group?.chatId === chatId && group.phase !== 'ended' && group.phase !== 'incoming';
  const busy = Boolean(
    (call && call.phase !== 'ended') || (group && group.phase !== 'ended' && group.phase !== 'incoming'),
  );
  if (going && !inThisCall)
    return (
      <button
        type="button"
        className="button button--primary chat-header__join"
        disabled={busy}
        aria-label={t('calls.group.joinLabel', { group: groupName })}
        onClick={() => void joinGroupCall(chatId, going.media)}
      >
        {t('calls.group.join')}
      </button>
    );
  return (
    <>
      <button
        type="button"
        className="button chat-header__call"
        disabled={busy}
        aria-label={t('calls.voiceCallTo', { name: groupName })}
        title={t('calls.voiceCall')}
        onClick={() => void startGroupCall(chatId, 'audio')}
      >
        <PhoneIcon />
      </button>
      <button
        type="button"
        className="button chat-header__call"
        disabled={busy}
        aria-label={t('calls.videoCallTo', { name: groupName })}
        title={t('calls.videoCall')}
        onClick={() => void startGroupCall(chatId, 'video')}
      >
        <VideoIcon />
      </button>
    </>
  );
};
