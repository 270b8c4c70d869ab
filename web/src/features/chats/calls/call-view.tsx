import { useEffect, useRef, useState, useSyncExternalStore, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Avatar } from '../../../components/avatar.tsx';
import { DevicePicker } from './call-devices.tsx';
import { canShareScreen, type CallNotice } from './call-outgoing.ts';
import { callsView, subscribeCalls } from './call-store.ts';

/** What one-to-one and group call screens share. */

/** The screen's view of calls. */
export const useCalls = () => useSyncExternalStore(subscribeCalls, callsView);

const twoDigits = (n: number) => String(n).padStart(2, '0');
export const formatCallDuration = (seconds: number): string => {
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  return `${hours ? `${hours}:${twoDigits(minutes)}` : minutes}:${twoDigits(seconds % 60)}`;
};

/** Seconds since `since`, counting while mounted. */
const useElapsed = (since: number | null): number => {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (since === null) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [since]);
  return since === null ? 0 : Math.max(0, Math.floor((now - since) / 1000));
};

/** How long a call has been connected, counting. */
export const CallTimer = ({ since }: { since: number | null }) => {
  const elapsed = useElapsed(since);
  return <time dateTime={`PT${elapsed}S`}>{formatCallDuration(elapsed)}</time>;
};

/** A video or audio element that plays `stream`. */
export const useStream = (stream: MediaStream | null) => {
  const element = useRef<HTMLVideoElement & HTMLAudioElement>(null);
  useEffect(() => {
    if (element.current && element.current.srcObject !== stream) element.current.srcObject = stream;
  }, [stream]);
  return element;
};

/** What a call's controls do. */
export interface CallActions {
  onMute: () => void;
  onCamera: () => void;
  onSwitchInput: (kind: 'audio' | 'video', deviceId: string) => void;
  onShareScreen: () => void;
  onStopSharing: () => void;
  onHangUp: () => void;
  onClose: () => void;
}

/**
 * A call's buttons: mute, camera and screen sharing (with a camera; sharing where the browser
 * can), the device pickers, hang up; once it ended, close.
 */
export const CallControls = ({
  call,
  ended,
  actions,
}: {
  call: {
    muted: boolean;
    cameraOff: boolean;
    sharing: boolean;
    notice: CallNotice | null;
    localStream: MediaStream | null;
  };
  ended: boolean;
  actions: CallActions;
}) => {
  const { t } = useTranslation();
  const withCamera = Boolean(call.localStream?.getVideoTracks().length);
  return (
    <>
      <div className="call-panel__controls">
        {ended ? (
          <button type="button" className="button" onClick={actions.onClose}>
            {t('common.close')}
          </button>
        ) : (
          <>
            <button type="button" className="button" aria-pressed={call.muted} onClick={actions.onMute}>
              {t(call.muted ? 'calls.unmute' : 'calls.mute')}
            </button>
            {withCamera && !call.sharing ? (
              <button
                type="button"
                className="button"
                aria-pressed={call.cameraOff}
                onClick={actions.onCamera}
              >
                {t(call.cameraOff ? 'calls.cameraOn' : 'calls.cameraOff')}
              </button>
            ) : null}
            {withCamera && canShareScreen() ? (
              <button
                type="button"
                className="button"
                onClick={call.sharing ? actions.onStopSharing : actions.onShareScreen}
              >
                {t(call.sharing ? 'calls.stopSharing' : 'calls.shareScreen')}
              </button>
            ) : null}
            <DevicePicker stream={call.localStream} sharing={call.sharing} onSwitch={actions.onSwitchInput} />
            <button type="button" className="button button--danger" onClick={actions.onHangUp}>
              {t('calls.hangUp')}
            </button>
          </>
        )}
      </div>
      {call.notice && !ended ? (
        <p className="form__error" role="alert">
          {t(`calls.notice.${call.notice}`)}
        </p>
      ) : null}
    </>
  );
};

/** A call panel's head: who (or which group) the call is with, and its state or timer. */
export const CallPanelHead = ({
  titleId,
  name,
  warning = false,
  children,
}: {
  titleId: string;
  name: string;
  /** The state is a warning (a refused call): read out at once. */
  warning?: boolean;
  children: ReactNode;
}) => (
  <div className="call-panel__head">
    <Avatar name={name} picture={undefined} />
    <div>
      <h2 id={titleId} className="call-panel__title">
        <bdi>{name}</bdi>
      </h2>
      <p
        className={`call-panel__status${warning ? ' form__error' : ''}`}
        role={warning ? 'alert' : 'status'}
        data-testid="call-status"
      >
        {children}
      </p>
    </div>
  </div>
);
