import { useTranslation } from 'react-i18next';
import { StartCallButtons } from './call-buttons.tsx';
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
    <StartCallButtons name={groupName} busy={busy} onStart={(media) => void startGroupCall(chatId, media)} />
  );
};
