import { useEffect, useRef } from 'react';
import { useQueueMessage } from '../../messages/index.ts';
import type { CallEnd, CallState, GroupCallState } from './call-store.ts';

/** Calls that ended before any offer left this browser: nothing to record. */
const neverOffered: ReadonlySet<CallEnd> = new Set<CallEnd>([
  'no-webrtc',
  'no-device',
  'device-busy',
  'permission-denied',
  'media-failed',
  'offline',
  'keys-unchecked',
]);

const secondsOf = (call: { connectedAt: number | null; endedAt: number | null }): number | null =>
  call.connectedAt !== null && call.endedAt !== null
    ? Math.max(0, Math.round((call.endedAt - call.connectedAt) / 1000))
    : null;

/**
 * The caller's browser leaves each call it made in the chat's timeline when it ends: an ordinary
 * message, sealed and signed like any other, so both sides see it, and one never answered counts
 * as unread for the callee (a missed call) (docs/calls.md, "In the timeline"). The browser that
 * started a group call does so when it leaves the call, naming who took part meanwhile, so
 * everyone else reads it as missed.
 */
export const useCallRecords = (call: CallState | GroupCallState | null): void => {
  const queue = useQueueMessage();
  const recorded = useRef(new Set<string>());
  useEffect(() => {
    if (!call || call.phase !== 'ended' || call.direction !== 'outgoing') return;
    if (!call.end || neverOffered.has(call.end) || recorded.current.has(call.callId)) return;
    recorded.current.add(call.callId);
    queue(call.chatId, '', null, [], {
      media: call.media,
      seconds: secondsOf(call),
      ...('joined' in call && { group: { joined: call.joined } }),
    });
  }, [call, queue]);
};
