import { useEffect, useRef, useState, useSyncExternalStore, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Avatar } from '../../../components/avatar.tsx';
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

/** A call's buttons: mute, camera (with a camera), hang up; once it ended, close. */
export const CallControls = ({
  call,
  ended,
  onMute,
  onCamera,
  onHangUp,
  onClose,
}: {
  call: { muted: boolean; cameraOff: boolean; localStream: MediaStream | null };
  ended: boolean;
  onMute: () => void;
  onCamera: () => void;
  onHangUp: () => void;
  onClose: () => void;
}) => {
  const { t } = useTranslation();
  return (
    <div className="call-panel__controls">
      {ended ? (
        <button type="button" className="button" onClick={onClose}>
          {t('common.close')}
        </button>
      ) : (
        <>
          <button type="button" className="button" aria-pressed={call.muted} onClick={onMute}>
            {t(call.muted ? 'calls.unmute' : 'calls.mute')}
          </button>
          {call.localStream?.getVideoTracks().length ? (
            <button type="button" className="button" aria-pressed={call.cameraOff} onClick={onCamera}>
              {t(call.cameraOff ? 'calls.cameraOn' : 'calls.cameraOff')}
            </button>
          ) : null}
          <button type="button" className="button button--danger" onClick={onHangUp}>
            {t('calls.hangUp')}
          </button>
        </>
      )}
    </div>
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
