import { openInputTrack, openScreenTrack } from './call-media.ts';

/**
 * Changing what a call sends while it goes on, one-to-one or group (docs/calls.md, "Devices and
 * screen sharing"): another microphone or camera, or the screen in the camera's place. Each is a
 * new track put on the connections' existing senders with `RTCRtpSender.replaceTrack`, so nothing
 * is renegotiated: the other side keeps its receiver, and the DTLS session and its checked
 * certificate stay as they are.
 */

/** Something the person should know about a change that did not happen. */
export type CallNotice = 'device-failed' | 'share-refused';

/** What of a call's state this module reads and changes. */
export interface OutgoingState {
  localStream: MediaStream | null;
  muted: boolean;
  cameraOff: boolean;
  sharing: boolean;
}

/** How an engine lets this module at its call: null once the call is over. */
export interface OutgoingCall {
  state: () => OutgoingState | null;
  connections: () => RTCPeerConnection[];
  update: (change: Partial<OutgoingState> & { notice?: CallNotice | null }) => void;
}

export interface OutgoingMedia {
  /** Sends the microphone or camera `deviceId` instead of the one in use. */
  switchInput: (kind: 'audio' | 'video', deviceId: string) => Promise<void>;
  /** Sends the screen (a window, a tab) the browser lets the person pick instead of the camera. */
  shareScreen: () => Promise<void>;
  /** Sends the camera again. */
  stopSharing: () => Promise<void>;
  /** Lets go of the camera kept while the screen was shared; the call is over. */
  close: () => void;
}

/** Whether this browser can share a screen (phones' browsers cannot). */
export const canShareScreen = (): boolean => typeof navigator.mediaDevices?.getDisplayMedia === 'function';

export const outgoingMedia = (call: OutgoingCall): OutgoingMedia => {
  /** The camera's track while the screen takes its place: sharing stopped, it is sent again. */
  let camera: MediaStreamTrack | null = null;
  let closed = false;

  /** Puts `next` in the place of the local stream's track of its kind; answers the track it replaced. */
  const swap = async (next: MediaStreamTrack): Promise<MediaStreamTrack | null> => {
    const stream = call.state()?.localStream;
    const old = stream?.getTracks().find((track) => track.kind === next.kind);
    if (closed || !stream || !old) {
      next.stop();
      return null;
    }
    for (const pc of call.connections())
      for (const sender of pc.getSenders()) if (sender.track === old) await sender.replaceTrack(next);
    // A new stream, so the screen's own preview plays the new track.
    call.update({ localStream: new MediaStream([...stream.getTracks().filter((t) => t !== old), next]) });
    return old;
  };

  const stopSharing = async () => {
    const back = camera;
    if (!back) return;
    camera = null;
    back.enabled = !(call.state()?.cameraOff ?? false);
    const screen = await swap(back);
    screen?.stop();
    call.update({ sharing: false });
  };

  return {
    switchInput: async (kind, deviceId) => {
      if (!call.state() || (kind === 'video' && camera)) return;
      let track: MediaStreamTrack;
      try {
        track = await openInputTrack(kind, deviceId);
      } catch (error) {
        console.warn('Could not switch the call to another device', error);
        call.update({ notice: 'device-failed' });
        return;
      }
      const state = call.state();
      track.enabled = kind === 'audio' ? !state?.muted : !state?.cameraOff;
      (await swap(track))?.stop();
      call.update({ notice: null });
    },
    shareScreen: async () => {
      if (camera || !call.state()?.localStream?.getVideoTracks().length) return;
      let track: MediaStreamTrack;
      try {
        track = await openScreenTrack();
      } catch (error) {
        console.warn('Screen sharing was refused', error);
        call.update({ notice: 'share-refused' });
        return;
      }
      // The browser's own "Stop sharing" ends the track: the camera comes back.
      track.addEventListener('ended', () => void stopSharing());
      const replaced = await swap(track);
      if (!replaced) return;
      camera = replaced;
      // What is sent is seen: a group's tiles show it rather than the initial of a camera turned off.
      call.update({ sharing: true, cameraOff: false, notice: null });
    },
    stopSharing,
    close: () => {
      closed = true;
      camera?.stop();
      camera = null;
    },
  };
};
