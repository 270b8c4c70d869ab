import type { ChatView } from '@veil/contracts';
import { fetchData } from '../../../lib/fetch-data.ts';
import { sealingMembers } from '../../keys/index.ts';

const isChat = (data: unknown): data is ChatView => typeof data === 'object' && data !== null;

/**
 * Who may take part in a group call, as this browser verified the group (docs/crypto.md, "Signed
 * group state"): the members its signed chain gives, whatever the server lists (the server's
 * list for a group not signed yet, as messages are sealed). Null for a chat that is no group of
 * this account's.
 */
export const groupCallMembers = async (accountId: string, chatId: string): Promise<string[] | null> => {
  const chat = await fetchData(`chat/getchatbyid/${encodeURIComponent(chatId)}`, isChat);
  if (!chat.isGroupChat || chat.removedFromGroup) return null;
  const listed = [...new Set([...chat.participants.map((person) => person._id), accountId])];
  const members = await sealingMembers(accountId, chat, listed);
  return members.includes(accountId) ? members : null;
};
