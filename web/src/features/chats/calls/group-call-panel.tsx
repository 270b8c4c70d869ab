import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Avatar } from '../../../components/avatar.tsx';
import { useGetChatByIdQuery } from '../../messages/index.ts';
import { useSignedChat } from '../hooks/use-verified-group.ts';
import { CallControls, CallPanelHead, CallTimer, useStream, type CallActions } from './call-view.tsx';
import type { GroupCallState } from './call-store.ts';
import {
  acceptGroupCall,
  declineGroupCall,
  dismissGroupCall,
  leaveGroupCall,
  shareGroupScreen,
  stopSharingGroupScreen,
  switchGroupCallInput,
  toggleGroupCamera,
  toggleGroupMute,
} from './group-call-engine.ts';

/** The group's name as its signed chain gives it, and its members' names. */
export const useGroupCallNames = (chatId: string, me: string) => {
  const { t } = useTranslation();
  const { data: served } = useGetChatByIdQuery(chatId);
  const { chat } = useSignedChat(served, me);
  return {
    title: chat?.chatName ?? '',
    nameOf: (userId: string) =>
      chat?.participants.find((person) => person._id === userId)?.username ?? t('common.someone'),
  };
};

/** A group call ringing: "<name> is calling <group>", join with or without video, or decline. */
export const IncomingGroupCall = ({ call, me }: { call: GroupCallState; me: string }) => {
  const { t } = useTranslation();
  const { title, nameOf } = useGroupCallNames(call.chatId, me);
  const accept = useRef<HTMLButtonElement>(null);
  useEffect(() => accept.current?.focus(), []);
  const video = call.media === 'video';
  return (
    <section
      className="call-panel call-panel--incoming"
      role="alertdialog"
      aria-labelledby="incoming-group-call-title"
      data-testid="incoming-call"
    >
      <Avatar name={title} picture={undefined} />
      <h2 id="incoming-group-call-title" className="call-panel__title">
        {t(video ? 'calls.group.incomingVideo' : 'calls.group.incomingVoice', {
          name: nameOf(call.callerId),
          group: title,
        })}
      </h2>
      <div className="call-panel__controls">
        {video && (
          <button
            ref={accept}
            type="button"
            className="button button--primary"
            onClick={() => acceptGroupCall('video')}
          >
            {t('calls.acceptVideo')}
          </button>
        )}
        <button
          ref={video ? undefined : accept}
          type="button"
          className="button button--primary"
          onClick={() => acceptGroupCall('audio')}
        >
          {t(video ? 'calls.acceptAsVoice' : 'calls.accept')}
        </button>
        <button type="button" className="button button--danger" onClick={declineGroupCall}>
          {t('calls.decline')}
        </button>
      </div>
    </section>
  );
};

/** One person's tile: their video (or their initial), their name, and whether they are muted. */
const Tile = ({
  name,
  stream,
  cameraOff,
  muted,
  own = false,
  connecting = false,
}: {
  name: string;
  stream: MediaStream | null;
  cameraOff: boolean;
  muted: boolean;
  own?: boolean;
  connecting?: boolean;
}) => {
  const { t } = useTranslation();
  const media = useStream(stream);
  const showsVideo = Boolean(stream?.getVideoTracks().length) && !cameraOff;
  return (
    <li className="group-call__tile" data-testid="group-call-tile">
      {showsVideo ? (
        <video
          ref={media}
          className="group-call__video"
          autoPlay
          playsInline
          muted={own}
          aria-label={own ? t('calls.localVideo') : t('calls.remoteVideo', { name })}
        />
      ) : (
        <>
          <Avatar name={name} picture={undefined} decorative />
          {!own && <audio ref={media} autoPlay />}
        </>
      )}
      <span className="group-call__name">
        <bdi>{name}</bdi>
        {muted && <span className="group-call__muted">{t('calls.group.mutedMark')}</span>}
        {connecting && <span className="group-call__muted">{t('calls.phase.connecting')}</span>}
      </span>
    </li>
  );
};

const GroupCallStatus = ({ call }: { call: GroupCallState }) => {
  const { t } = useTranslation();
  if (call.phase === 'ended') return <>{t(`calls.end.${call.end ?? 'hung-up'}`)}</>;
  if (call.phase === 'active') return <CallTimer since={call.connectedAt} />;
  return <>{t(call.direction === 'outgoing' ? 'calls.group.calling' : 'calls.phase.connecting')}</>;
};

const groupCallActions: CallActions = {
  onMute: toggleGroupMute,
  onCamera: toggleGroupCamera,
  onSwitchInput: (kind, deviceId) => void switchGroupCallInput(kind, deviceId),
  onShareScreen: () => void shareGroupScreen(),
  onStopSharing: () => void stopSharingGroupScreen(),
  onHangUp: leaveGroupCall,
  onClose: dismissGroupCall,
};

/** The group call in progress: a grid of tiles (stacked on a phone), the controls, the timer. */
export const GroupCallPanel = ({ call, me }: { call: GroupCallState; me: string }) => {
  const { t } = useTranslation();
  const { title, nameOf } = useGroupCallNames(call.chatId, me);
  const ended = call.phase === 'ended';
  return (
    <section
      className="call-panel call-panel--group"
      aria-labelledby="group-call-title"
      data-testid="call-panel"
      data-phase={call.phase}
    >
      <CallPanelHead titleId="group-call-title" name={title}>
        <GroupCallStatus call={call} />
      </CallPanelHead>
      {!ended && (
        <ul className="group-call__grid" aria-label={t('calls.group.participants')}>
          <Tile
            name={t('calls.group.you')}
            stream={call.localStream}
            cameraOff={call.cameraOff}
            muted={call.muted}
            own
          />
          {call.peers.map((peer) => (
            <Tile
              key={peer.userId}
              name={nameOf(peer.userId)}
              stream={peer.stream}
              cameraOff={peer.cameraOff}
              muted={peer.muted}
              connecting={!peer.connected}
            />
          ))}
        </ul>
      )}
      <CallControls call={call} ended={ended} actions={groupCallActions} />
    </section>
  );
};
