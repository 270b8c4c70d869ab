import type { CallMedia } from '@veil/crypto';

/**
 * The address a pushed call's notification opens (docs/calls.md, "Ringing through Web Push"):
 * the chat, the call, who calls and with what. Written by the service worker from a signal it
 * checked, read by the tab it opens; the tab trusts none of it (`call-push-ring.ts`).
 */
export interface PushedCall {
  chatId: string;
  callId: string;
  callerId: string;
  media: CallMedia;
}

/** Where the notification of a pushed call leads. */
export const pushedCallUrl = (call: PushedCall) =>
  `/all-chats?${new URLSearchParams({
    chat: call.chatId,
    call: call.callId,
    from: call.callerId,
    media: call.media,
  }).toString()}`;

export const pushedCallIn = (search: string): PushedCall | null => {
  const params = new URLSearchParams(search);
  const [chatId, callId, callerId, media] = ['chat', 'call', 'from', 'media'].map((name) => params.get(name));
  if (!chatId || !callId || !callerId) return null;
  return { chatId, callId, callerId, media: media === 'video' ? 'video' : 'audio' };
};
