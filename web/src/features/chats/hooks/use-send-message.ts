import { current } from '@reduxjs/toolkit';
import type { ChatView, MessageView, PublicUser, SentReceipt } from '@veil/contracts';
import { encodeMessageContent, type AttachmentRef } from '@veil/crypto';
import { useState } from 'react';
import { useAppDispatch } from '../../../app/hooks.ts';
import { encryptForGroup, encryptForIndividual, type DisplayMessage } from '../../../lib/crypto.ts';
import { useSendIndividualMessageMutation } from '../../../lib/messaging.api.ts';
import { chatsApi } from '../api/chats.api.ts';
import { messagesApi, useSendGroupMessageMutation } from '../api/messages.api.ts';
import { withCurrentMembers } from '../current-members.ts';
import { mergeMessages } from '../messages.model.ts';
import { withHeldReceipts } from '../held-receipts.ts';
import { sendFailureText } from '../../../lib/send-errors.ts';
import { sendOverSocket } from '../../../lib/socket-send.ts';

/** A stored message as its sender knows it: what it sent, and what the server assigned. */
interface Sent {
  encrypted: Pick<MessageView, 'content' | 'iv' | 'encryptedKeys'>;
  receipt: SentReceipt;
}

/** The blob ids a message is sent with, beside its ciphertext. */
type Files = { attachments?: string[] };

// Written here, not imported: the web app takes only types from @veil/contracts, which keeps zod
// (about 100 KB) out of its bundle.
const receiptOf = ({ _id, seq, createdAt }: MessageView): SentReceipt => ({ _id, seq, createdAt });

/**
 * Encrypts and sends a message in the open chat, then puts it in the chat's history (the
 * server does not echo it to the sender's socket) and moves the chat to the top of the list.
 * While the socket is connected the message goes over it (`send message`); otherwise over the
 * spec's HTTP calls. Either way the server stores it before answering.
 */
export const useSendMessage = (chat: ChatView | undefined, me: PublicUser) => {
  const [sendIndividual] = useSendIndividualMessageMutation();
  const [sendGroup] = useSendGroupMessageMutation();
  const dispatch = useAppDispatch();
  const [error, setError] = useState('');

  /**
   * Group keys are wrapped for every current member. If membership changed since the chat was
   * loaded the server refuses the key map (KEY_MAP_MISMATCH); reload the members once and retry.
   */
  const sendToGroup = async (
    target: ChatView,
    text: string,
    clientMessageId: string,
    replyTo?: string,
    files: Files = {},
  ): Promise<Sent> => {
    const attempt = async (members: ChatView['participants']): Promise<Sent> => {
      const encrypted = await encryptForGroup(text, [...members.map((p) => p._id), me._id], replyTo);
      const payload = { ...encrypted, ...files };
      const receipt =
        (await sendOverSocket({ chatId: target._id, ...payload, clientMessageId })) ??
        receiptOf((await sendGroup({ chatId: target._id, payload, clientMessageId }).unwrap()).message);
      const { encryptedMessage: content, iv, encryptedKeys } = payload;
      return { encrypted: { content, iv, encryptedKeys }, receipt };
    };
    return withCurrentMembers(dispatch, target, attempt);
  };

  const sendToPerson = async (
    target: ChatView,
    recipientId: string,
    text: string,
    clientMessageId: string,
    replyTo?: string,
    files: Files = {},
  ): Promise<Sent> => {
    const payload = { ...(await encryptForIndividual(text, me._id, recipientId, replyTo)), ...files };
    const encrypted = {
      content: payload.encryptedMessage,
      iv: payload.iv,
      encryptedKeys: {
        [recipientId]: payload.encryptedAESKeyForRecipient,
        [me._id]: payload.encryptedAESKeyForSender,
      },
    };
    const receipt =
      (await sendOverSocket({
        chatId: target._id,
        encryptedMessage: encrypted.content,
        iv: encrypted.iv,
        encryptedKeys: encrypted.encryptedKeys,
        replyTo: payload.replyTo,
        clientMessageId,
        ...files,
      })) ?? receiptOf((await sendIndividual({ recipientId, payload, clientMessageId }).unwrap()).message);
    return { encrypted, receipt };
  };

  /** The sender's own copy: built from what it sent, so nothing is decrypted again. */
  const remember = (
    chatId: string,
    { encrypted, receipt }: Sent,
    text: string,
    replyTo: DisplayMessage | null,
    attachments: AttachmentRef[],
  ) => {
    const display: DisplayMessage = {
      ...encrypted,
      ...receipt,
      chat: chatId,
      sender: { _id: me._id },
      replyTo: replyTo && { ...replyTo, replyTo: null },
      seenBy: {},
      decryptedContent: text,
      readState: 'read',
      reactionTexts: {},
      ...(attachments.length && { attachments }),
    };
    dispatch(
      messagesApi.util.updateQueryData('getMessages', { chatId, userId: me._id }, (draft) => {
        draft.messages = mergeMessages(current(draft).messages, withHeldReceipts([display]));
      }),
    );
    dispatch(
      chatsApi.util.updateQueryData('getChats', undefined, (chats) => {
        const index = chats.findIndex((c) => c._id === chatId);
        const [moved] = index >= 0 ? chats.splice(index, 1) : [];
        if (moved) chats.unshift({ ...moved, updatedAt: receipt.createdAt });
      }),
    );
  };

  /**
   * Resolves true once sent; empty text without files, or no recipient, does nothing (spec
   * section 5). Files travel inside the ciphertext (their keys, names and types) and by blob id
   * beside it, so the server keeps them.
   */
  const send = async (
    text: string,
    replyTo: DisplayMessage | null,
    attachments: AttachmentRef[] = [],
  ): Promise<boolean> => {
    const recipientId = chat && !chat.isGroupChat ? chat.participants[0]?._id : undefined;
    if (!chat || (!text.trim() && !attachments.length) || (!chat.isGroupChat && !recipientId)) return false;
    setError('');
    try {
      // One key per message, kept across this send's attempts: the server stores it once.
      const clientMessageId = crypto.randomUUID();
      const plaintext = encodeMessageContent({ text, attachments });
      const files: Files = attachments.length ? { attachments: attachments.map((a) => a.blobId) } : {};
      const sent = chat.isGroupChat
        ? await sendToGroup(chat, plaintext, clientMessageId, replyTo?._id, files)
        : await sendToPerson(chat, recipientId!, plaintext, clientMessageId, replyTo?._id, files);
      remember(chat._id, sent, text, replyTo, attachments);
      return true;
    } catch (failure) {
      setError(sendFailureText(chat.isGroupChat, failure));
      return false;
    }
  };

  return { send, error, clearError: () => setError('') };
};
