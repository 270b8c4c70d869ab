import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * The microphone and camera pickers of a call in progress (docs/calls.md, "Devices and screen
 * sharing"): the browser's inputs (`enumerateDevices()`), kept up to date as devices come and go.
 */

type InputKind = 'audio' | 'video';

const useInputDevices = (): MediaDeviceInfo[] => {
  const [devices, setDevices] = useState<MediaDeviceInfo[]>([]);
  useEffect(() => {
    const mediaDevices = navigator.mediaDevices as MediaDevices | undefined;
    if (!mediaDevices?.enumerateDevices) return;
    let current = true;
    const read = () =>
      void mediaDevices.enumerateDevices().then(
        (found) =>
          current && setDevices(found.filter((d) => d.kind === 'audioinput' || d.kind === 'videoinput')),
        (error: unknown) => console.warn('Could not list the microphones and cameras', error),
      );
    read();
    mediaDevices.addEventListener('devicechange', read);
    return () => {
      current = false;
      mediaDevices.removeEventListener('devicechange', read);
    };
  }, []);
  return devices;
};

/** The device a stream's track of `kind` comes from ('' when unknown). */
const deviceOf = (stream: MediaStream | null, kind: InputKind): string =>
  stream
    ?.getTracks()
    .find((track) => track.kind === kind)
    ?.getSettings().deviceId ?? '';

const InputSelect = ({
  kind,
  devices,
  stream,
  disabled,
  onSwitch,
}: {
  kind: InputKind;
  devices: MediaDeviceInfo[];
  stream: MediaStream | null;
  disabled: boolean;
  onSwitch: (kind: InputKind, deviceId: string) => void;
}) => {
  const { t } = useTranslation();
  const inputs = devices.filter((d) => d.kind === (kind === 'audio' ? 'audioinput' : 'videoinput'));
  const label = t(kind === 'audio' ? 'calls.microphone' : 'calls.camera');
  return (
    <label className="call-devices__field">
      <span>{label}</span>
      <select
        className="call-devices__select"
        value={deviceOf(stream, kind)}
        disabled={disabled || inputs.length === 0}
        onChange={(event) => onSwitch(kind, event.target.value)}
      >
        {inputs.map((device, index) => (
          <option key={device.deviceId} value={device.deviceId}>
            {device.label || `${label} ${index + 1}`}
          </option>
        ))}
      </select>
    </label>
  );
};

/** "Devices": a disclosure with the microphone picker, and the camera picker in a video call. */
export const DevicePicker = ({
  stream,
  sharing,
  onSwitch,
}: {
  stream: MediaStream | null;
  sharing: boolean;
  onSwitch: (kind: InputKind, deviceId: string) => void;
}) => {
  const { t } = useTranslation();
  const devices = useInputDevices();
  return (
    <details className="call-devices">
      <summary className="button">{t('calls.devices')}</summary>
      <div className="call-devices__fields">
        <InputSelect kind="audio" devices={devices} stream={stream} disabled={false} onSwitch={onSwitch} />
        {stream?.getVideoTracks().length ? (
          // While the screen is shared, the camera waits as it was.
          <InputSelect
            kind="video"
            devices={devices}
            stream={stream}
            disabled={sharing}
            onSwitch={onSwitch}
          />
        ) : null}
      </div>
    </details>
  );
};
