import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Avatar } from '../../../components/avatar.tsx';
import { useBlockedIds } from '../../../lib/blocks.api.ts';
import { useGetChatByIdQuery } from '../../messages/index.ts';
import {
  acceptCall,
  declineCall,
  dismissCall,
  hangUp,
  setCallBlocking,
  shareScreen,
  startCalls,
  stopSharingScreen,
  switchCallInput,
  toggleCamera,
  toggleMute,
} from './call-engine.ts';
import type { CallState, RefusedCall } from './call-store.ts';
import {
  CallControls,
  CallPanelHead,
  CallTimer,
  useCalls,
  useStream,
  type CallActions,
} from './call-view.tsx';
import { GroupCallPanel, IncomingGroupCall } from './group-call-panel.tsx';
import { useCallRecords } from './use-call-records.ts';

/** The other side's name, from the chat the call is in. */
const usePeerName = (chatId: string, peerId: string): string => {
  const { t } = useTranslation();
  const { data: chat } = useGetChatByIdQuery(chatId);
  return chat?.participants.find((p) => p._id === peerId)?.username ?? t('common.someone');
};

/**
 * Calls while someone is logged in: takes calls on the socket, rings, shows the call in progress
 * and how it ended, and warns of a call refused because it did not check.
 */
export const CallCenter = ({ me }: { me: string }) => {
  const blocked = useBlockedIds();
  const blockedRef = useRef(blocked);
  blockedRef.current = blocked;
  useEffect(() => startCalls(me, (id) => blockedRef.current.has(id)), [me]);
  useEffect(() => setCallBlocking((id) => blockedRef.current.has(id)), [blocked]);
  const { call, group, refused } = useCalls();
  useCallRecords(call);
  useCallRecords(group);
  return (
    <>
      {refused && <RefusedCallWarning refused={refused} />}
      {call?.phase === 'incoming' && <IncomingCall call={call} />}
      {call && call.phase !== 'incoming' && <CallPanel call={call} />}
      {group?.phase === 'incoming' && <IncomingGroupCall call={group} me={me} />}
      {group && group.phase !== 'incoming' && <GroupCallPanel call={group} me={me} />}
    </>
  );
};

const RefusedCallWarning = ({ refused }: { refused: RefusedCall }) => {
  const { t } = useTranslation();
  const name = usePeerName(refused.chatId, refused.peerId);
  return (
    <div className="call-warning form__error" role="alert" data-testid="call-refused">
      <p>
        {t(refused.reason === 'not-a-member' ? 'calls.group.notAMemberWarning' : 'calls.refusedWarning', {
          name,
        })}
      </p>
      <button type="button" className="button" onClick={dismissCall}>
        {t('common.dismiss')}
      </button>
    </div>
  );
};

const IncomingCall = ({ call }: { call: CallState }) => {
  const { t } = useTranslation();
  const name = usePeerName(call.chatId, call.peerId);
  const accept = useRef<HTMLButtonElement>(null);
  useEffect(() => accept.current?.focus(), []);
  return (
    <section
      className="call-panel call-panel--incoming"
      role="alertdialog"
      aria-labelledby="incoming-call-title"
      data-testid="incoming-call"
    >
      <Avatar name={name} picture={undefined} />
      <h2 id="incoming-call-title" className="call-panel__title">
        {t(call.media === 'video' ? 'calls.incomingVideo' : 'calls.incomingVoice', { name })}
      </h2>
      <div className="call-panel__controls">
        {call.media === 'video' && (
          <button
            ref={accept}
            type="button"
            className="button button--primary"
            onClick={() => void acceptCall('video')}
          >
            {t('calls.acceptVideo')}
          </button>
        )}
        <button
          ref={call.media === 'video' ? undefined : accept}
          type="button"
          className="button button--primary"
          onClick={() => void acceptCall('audio')}
        >
          {t(call.media === 'video' ? 'calls.acceptAsVoice' : 'calls.accept')}
        </button>
        <button type="button" className="button button--danger" onClick={declineCall}>
          {t('calls.decline')}
        </button>
      </div>
    </section>
  );
};

const CallStatus = ({ call }: { call: CallState }) => {
  const { t } = useTranslation();
  if (call.phase === 'ended') return <>{t(`calls.end.${call.end ?? 'hung-up'}`)}</>;
  if (call.phase === 'active') return <CallTimer since={call.connectedAt} />;
  return <>{t(`calls.phase.${call.phase}`)}</>;
};

const callActions: CallActions = {
  onMute: toggleMute,
  onCamera: toggleCamera,
  onSwitchInput: (kind, deviceId) => void switchCallInput(kind, deviceId),
  onShareScreen: () => void shareScreen(),
  onStopSharing: () => void stopSharingScreen(),
  onHangUp: hangUp,
  onClose: dismissCall,
};

const CallPanel = ({ call }: { call: CallState }) => {
  const { t } = useTranslation();
  const name = usePeerName(call.chatId, call.peerId);
  const remote = useStream(call.remoteStream);
  const local = useStream(call.localStream);
  const ended = call.phase === 'ended';
  const warning = call.end === 'refused';
  return (
    <section
      className={`call-panel${call.media === 'video' ? ' call-panel--video' : ''}`}
      aria-labelledby="call-title"
      data-testid="call-panel"
      data-phase={call.phase}
    >
      <CallPanelHead titleId="call-title" name={name} warning={warning}>
        <CallStatus call={call} />
      </CallPanelHead>
      {call.media === 'video' && !ended ? (
        <div className="call-panel__videos">
          <video
            ref={remote}
            className="call-panel__remote"
            autoPlay
            playsInline
            aria-label={t('calls.remoteVideo', { name })}
          />
          <video
            ref={local}
            className="call-panel__local"
            autoPlay
            playsInline
            muted
            aria-label={t('calls.localVideo')}
          />
        </div>
      ) : (
        !ended && <audio ref={remote} autoPlay />
      )}
      <CallControls call={call} ended={ended} actions={callActions} />
    </section>
  );
};
