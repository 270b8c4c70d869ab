import type { CallRecord } from '@veil/crypto';
import { t } from '../../lib/i18n.ts';

/**
 * What a call's entry in the timeline says, in the reader's language: "Voice call, 4 min", or
 * "Missed video call" for one never answered. Minutes are rounded up: a call of 20 s took place.
 * A group call's says "Group voice call, 3 min" to those who took part (`readerId` among those
 * it names), and is missed for everyone else.
 */
export const callRecordText = (call: CallRecord, readerId?: string): string => {
  if (call.group) {
    if (call.seconds === null || (readerId !== undefined && !call.group.joined.includes(readerId)))
      return t(call.media === 'video' ? 'calls.record.missedGroupVideo' : 'calls.record.missedGroupVoice');
    const count = Math.max(1, Math.ceil(call.seconds / 60));
    return t(call.media === 'video' ? 'calls.record.groupVideo' : 'calls.record.groupVoice', { count });
  }
  if (call.seconds === null)
    return t(call.media === 'video' ? 'calls.record.missedVideo' : 'calls.record.missedVoice');
  const count = Math.max(1, Math.ceil(call.seconds / 60));
  return t(call.media === 'video' ? 'calls.record.video' : 'calls.record.voice', { count });
};
