import { callRecordText } from '../call-record-text.ts';
import { encryptForGroup, encryptForIndividual, withoutCommitment } from '../crypto.ts';
import { type DisplayMessage } from '../display-message.ts';
import { messagingApi } from '../messaging.api.ts';
import { current } from '@reduxjs/toolkit';
import type { ChatView, MessageView, PublicUser, SentReceipt } from '@veil/contracts';
import { encodeMessageContent, frankText, type AttachmentRef } from '@veil/crypto';
import type { useAppDispatch } from '../../../app/hooks.ts';
import { sealingMembers, signOutgoing, type Outgoing } from '../../keys/index.ts';
import { sendOverSocket } from '../../../lib/socket-send.ts';
import { chatsApi } from '../api/chats.api.ts';
import { fetchChat } from '../api/chat-by-id.api.ts';
import { withCurrentMembers } from '../current-members.ts';
import { messagesApi } from '../api/messages.api.ts';
import { rememberOwnMessage } from '../api/unread.api.ts';
import { withHeldReceipts } from '../held-receipts.ts';
import { mergeMessages } from '../messages.model.ts';
import { previewText, rememberPreview } from '../previews.ts';
import type { OutboxItem } from './outbox.slice.ts';

type AppDispatch = ReturnType<typeof useAppDispatch>;

/** A stored message as its sender knows it: what it sent, and what the server assigned. */
interface Sent {
  encrypted: Pick<MessageView, 'content' | 'iv' | 'encryptedKeys' | 'signature'>;
  receipt: SentReceipt;
}

// Written here, not imported: the web app takes only types from @veil/contracts, which keeps zod
// (about 100 KB) out of its bundle.
const receiptOf = ({ _id, seq, createdAt }: MessageView): SentReceipt => ({ _id, seq, createdAt });

/**
 * Encrypts and sends one message of the outbox, then puts it in the chat's history (the server
 * does not echo it to the sender's socket), moves the chat to the top of the list and makes it
 * the chat's preview. While the socket is connected the message goes over it (`send message`);
 * otherwise over the HTTP calls. Either way the server stores it before answering, and
 * the item's `clientMessageId` makes every repeat of it safe. Failures throw (ApiErrors).
 */
export const deliverMessage = async (dispatch: AppDispatch, me: PublicUser, item: OutboxItem) => {
  const chat = await fetchChat(dispatch, item.chatId);
  const replyTo = item.replyTo?._id;
  const attachments = item.attachments ?? [];
  // Files travel inside the ciphertext (their keys, names and types) and by blob id beside it,
  // and so does the franking key: a member who reports the message reveals it with the text.
  // A call's entry franks its text (empty): what it shows is written from the call.
  const franking = await frankText(item.text);
  const plaintext = encodeMessageContent({
    text: item.text,
    attachments,
    franking: franking.key,
    ...(item.call && { call: item.call }),
    ...(item.mentions && { mentions: item.mentions }),
  });
  const files = attachments.length ? { attachments: attachments.map((file) => file.blobId) } : {};
  const { clientMessageId } = item;
  /**
   * Every attempt seals and signs what it sends, over the same client message id and creation
   * time (when the user wrote it); the server keeps the first attempt it stores, with its own
   * signature, and answers a repeat with that one.
   */
  const sign = async (memberIds: readonly string[], sealed: Outgoing['sealed']) => {
    const signature = await signOutgoing({
      chatId: chat._id,
      isGroupChat: chat.isGroupChat,
      memberIds,
      senderId: me._id,
      clientMessageId,
      replyTo: replyTo ?? null,
      createdAt: item.queuedAt,
      sealed: { ...sealed, franking: franking.tag },
    });
    return signature ? { signature } : {};
  };

  /**
   * Group keys are wrapped for every current member (read again once if the server says the
   * membership changed).
   */
  const sendToGroup = async (): Promise<Sent> => {
    const attempt = async (members: ChatView['participants']): Promise<Sent> => {
      // Sealed for the signed membership, not the server's word (docs/crypto.md, "Signed group state").
      // The members as read again after a refusal make the group's chain be fetched again too.
      const memberIds = await sealingMembers(me._id, { ...chat, participants: members }, [
        ...new Set([...members.map((p) => p._id), me._id]),
      ]);
      const sealed = await encryptForGroup(plaintext, me._id, memberIds, replyTo);
      const signed = await sign(memberIds, {
        ciphertext: sealed.encryptedMessage,
        iv: sealed.iv,
        encryptedKeys: sealed.encryptedKeys,
        keyCommitment: sealed.keyCommitment,
      });
      const payload = { ...withoutCommitment(sealed), ...files, ...signed };
      const receipt =
        (await sendOverSocket({ chatId: chat._id, ...payload, clientMessageId })) ??
        receiptOf(
          (
            await dispatch(
              messagesApi.endpoints.sendGroupMessage.initiate({ chatId: chat._id, payload, clientMessageId }),
            ).unwrap()
          ).message,
        );
      const { encryptedMessage: content, iv, encryptedKeys } = payload;
      return { encrypted: { content, iv, encryptedKeys, ...signed }, receipt };
    };
    return withCurrentMembers(dispatch, chat, attempt);
  };

  const sendToPerson = async (recipientId: string): Promise<Sent> => {
    const sealed = await encryptForIndividual(plaintext, me._id, recipientId, replyTo);
    const encryptedKeys = {
      [recipientId]: sealed.encryptedAESKeyForRecipient,
      [me._id]: sealed.encryptedAESKeyForSender,
    };
    const signed = await sign([me._id, recipientId], {
      ciphertext: sealed.encryptedMessage,
      iv: sealed.iv,
      encryptedKeys,
      keyCommitment: sealed.keyCommitment,
    });
    const payload = { ...withoutCommitment(sealed), ...files, ...signed };
    const encrypted = { content: payload.encryptedMessage, iv: payload.iv, encryptedKeys, ...signed };
    const receipt =
      (await sendOverSocket({
        chatId: chat._id,
        encryptedMessage: encrypted.content,
        iv: encrypted.iv,
        encryptedKeys: encrypted.encryptedKeys,
        replyTo: payload.replyTo,
        clientMessageId,
        ...files,
        ...signed,
      })) ??
      receiptOf(
        (
          await dispatch(
            messagingApi.endpoints.sendIndividualMessage.initiate({ recipientId, payload, clientMessageId }),
          ).unwrap()
        ).message,
      );
    return { encrypted, receipt };
  };

  const recipientId = chat.isGroupChat ? undefined : chat.participants[0]?._id;
  if (!chat.isGroupChat && !recipientId) throw new Error('This chat has nobody to send to');
  const sent = chat.isGroupChat ? await sendToGroup() : await sendToPerson(recipientId!);
  remember(dispatch, me, chat._id, sent, item, attachments, franking.key);
};

/** The sender's own copy: built from what it sent, so nothing is decrypted again. */
const remember = (
  dispatch: AppDispatch,
  me: PublicUser,
  chatId: string,
  { encrypted, receipt }: Sent,
  { text: written, replyTo, clientMessageId, call, mentions }: OutboxItem,
  attachments: AttachmentRef[],
  frankingKey: string,
) => {
  const text = call ? callRecordText(call, me._id) : written;
  const display: DisplayMessage = {
    ...encrypted,
    ...receipt,
    clientMessageId,
    // What this browser just sealed and signed: nothing to check.
    verification: { status: 'own' },
    chat: chatId,
    sender: { _id: me._id },
    replyTo: replyTo && { ...replyTo, replyTo: null },
    seenBy: {},
    decryptedContent: text,
    readState: 'read',
    reactionTexts: {},
    frankingKey,
    ...(attachments.length && { attachments }),
    ...(call && { call }),
    ...(mentions?.length && { mentions }),
  };
  dispatch(
    messagesApi.util.updateQueryData('getMessages', { chatId, userId: me._id }, (draft) => {
      draft.messages = mergeMessages(current(draft).messages, withHeldReceipts([display]));
    }),
  );
  // The chat's newest message: what this browser sealed and signed, its own text known here.
  const last: MessageView = {
    ...encrypted,
    ...receipt,
    clientMessageId,
    chat: chatId,
    sender: { _id: me._id },
    replyTo: null,
    seenBy: {},
  };
  rememberPreview(last, previewText(text, attachments));
  dispatch(rememberOwnMessage(me._id, last));
  dispatch(
    chatsApi.util.updateQueryData('getChats', undefined, (chats) => {
      const index = chats.findIndex((c) => c._id === chatId);
      const [moved] = index >= 0 ? chats.splice(index, 1) : [];
      if (moved) chats.unshift({ ...moved, updatedAt: receipt.createdAt });
    }),
  );
};
