import type { CallIceConfig } from '@veil/contracts';
import type { CallMedia } from '@veil/crypto';
import { fetchData } from '../../../lib/fetch-data.ts';

/** Why a call could not use this browser's microphone or camera, or could not call at all. */
export type MediaProblem = 'no-webrtc' | 'no-device' | 'device-busy' | 'permission-denied' | 'media-failed';

export class CallMediaError extends Error {
  readonly problem: MediaProblem;
  constructor(problem: MediaProblem, cause?: unknown) {
    super(`Call media: ${problem}`, { cause });
    this.name = 'CallMediaError';
    this.problem = problem;
  }
}

/** Whether this browser can make calls at all (WebRTC and access to microphones). */
export const canCall = (): boolean =>
  typeof RTCPeerConnection === 'function' && typeof navigator.mediaDevices?.getUserMedia === 'function';

/** The microphone, and the camera for a video call; the browser's errors as problems people understand. */
export const openLocalMedia = async (media: CallMedia): Promise<MediaStream> => {
  if (!canCall()) throw new CallMediaError('no-webrtc');
  try {
    return await navigator.mediaDevices.getUserMedia({ audio: true, video: media === 'video' });
  } catch (error) {
    const name = (error as { name?: string } | null)?.name;
    if (name === 'NotAllowedError' || name === 'SecurityError')
      throw new CallMediaError('permission-denied', error);
    if (name === 'NotFoundError' || name === 'OverconstrainedError')
      throw new CallMediaError('no-device', error);
    if (name === 'NotReadableError' || name === 'AbortError') throw new CallMediaError('device-busy', error);
    throw new CallMediaError('media-failed', error);
  }
};

export const stopMedia = (stream: MediaStream | null | undefined): void => {
  for (const track of stream?.getTracks() ?? []) track.stop();
};

const isIceConfig = (data: unknown): data is CallIceConfig =>
  Array.isArray((data as CallIceConfig | null)?.iceServers);

/**
 * The STUN/TURN servers to use (`GET /calls/turn`: short-lived TURN credentials), and whether
 * calls must go through the relay. Without an answer, a call still tries direct connections
 * (one machine or network).
 */
export const fetchIceConfig = async (): Promise<RTCConfiguration> => {
  try {
    const config = await fetchData('calls/turn', isIceConfig);
    return { iceServers: config.iceServers, iceTransportPolicy: config.iceTransportPolicy };
  } catch (error) {
    console.warn('No TURN configuration; trying direct connections only', error);
    return { iceServers: [] };
  }
};

/**
 * The DTLS certificate fingerprint the connection actually met on the other side, from its
 * statistics (`sha-256 AB:CD:…`); null while none is known.
 */
export const remoteCertificateFingerprint = async (pc: RTCPeerConnection): Promise<string | null> => {
  const stats = await pc.getStats();
  let certificateId: string | undefined;
  stats.forEach((report: { type: string; remoteCertificateId?: string; dtlsState?: string }) => {
    if (report.type === 'transport' && report.remoteCertificateId) certificateId = report.remoteCertificateId;
  });
  const certificate = certificateId
    ? (stats.get(certificateId) as { fingerprint?: string; fingerprintAlgorithm?: string } | undefined)
    : undefined;
  if (!certificate?.fingerprint || !certificate.fingerprintAlgorithm) return null;
  return `${certificate.fingerprintAlgorithm} ${certificate.fingerprint}`;
};

/** Bytes of media received so far over the connection (audio and video). */
export const bytesReceived = async (pc: RTCPeerConnection): Promise<number> => {
  let total = 0;
  (await pc.getStats()).forEach((report: { type: string; bytesReceived?: number }) => {
    if (report.type === 'inbound-rtp') total += report.bytesReceived ?? 0;
  });
  return total;
};

/** A track of the microphone or camera `deviceId`, for switching a call to it. */
export const openInputTrack = async (
  kind: 'audio' | 'video',
  deviceId: string,
): Promise<MediaStreamTrack> => {
  const stream = await navigator.mediaDevices.getUserMedia({ [kind]: { deviceId: { exact: deviceId } } });
  const [track] = kind === 'audio' ? stream.getAudioTracks() : stream.getVideoTracks();
  if (!track) throw new CallMediaError('no-device');
  return track;
};

/** A track of the screen, window or tab the person picks in the browser's own dialog. */
export const openScreenTrack = async (): Promise<MediaStreamTrack> => {
  const stream = await navigator.mediaDevices.getDisplayMedia({ video: true, audio: false });
  const [track] = stream.getVideoTracks();
  if (!track) throw new CallMediaError('media-failed');
  return track;
};
