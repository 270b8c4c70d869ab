import type { ChatView } from '@veil/contracts';
import { useEffect, useMemo, useState } from 'react';
import { t } from '../../../lib/i18n.ts';
import { signGroupStateOnce, verifiedGroupFor, type VerifiedGroup } from '../../keys/index.ts';
import type { ShownGroup } from '../group-notice-checks.ts';

/**
 * The open group's signed chain, verified (docs/crypto.md, "Signed group state"), again whenever
 * the server's view of the group is loaded. An admin's browser that opens a group whose state is
 * not signed yet signs it then, once. Undefined until it is first checked, for a one-to-one chat,
 * or when the changes could not be fetched (the chat then shows what the server says).
 */
export const useVerifiedGroup = (chat: ChatView | undefined, myId: string): ShownGroup | undefined => {
  const [verified, setVerified] = useState<{ chat: ChatView; group: VerifiedGroup }>();
  useEffect(() => {
    if (!chat?.isGroupChat) return;
    let live = true;
    const check = async () => {
      let group = await verifiedGroupFor(myId, chat, { refresh: true });
      if (
        group.status === 'unsigned' &&
        chat.admins?.includes(myId) &&
        (await signGroupStateOnce(myId, chat._id))
      )
        group = await verifiedGroupFor(myId, chat);
      if (live) setVerified({ chat, group });
    };
    check().catch(() => {
      // Not fetched or not signed now: the chat shows what the server says until it changes.
    });
    return () => {
      live = false;
    };
  }, [chat, myId]);
  if (!chat?.isGroupChat || verified?.chat._id !== chat._id) return undefined;
  // The chain checked for an older view of the group stays shown while this one is checked: a
  // notice that just arrived is not judged against it (`noticeCheckOf`).
  return verified.chat === chat ? verified.group : { ...verified.group, pending: true };
};

/**
 * The group as its signed chain says it is: members, admins, name and timer from the verified
 * chain where the server's view differs; the server's people for the names it gives (a signed
 * member the server does not list is named as a former member would be). A group without a
 * chain, or a chain that gives no state, is shown as the server says.
 */
export const signedChatView = (chat: ChatView, group: VerifiedGroup | undefined, myId: string): ChatView => {
  if (group?.status !== 'signed' || !group.state) return chat;
  const { state } = group;
  const listed = new Map(chat.participants.map((person) => [person._id, person] as const));
  return {
    ...chat,
    chatName: state.name,
    admins: [...state.admins],
    disappearingSeconds: state.timerSeconds,
    participants: state.members
      .filter((id) => id !== myId || listed.has(id))
      .map((id) => listed.get(id) ?? { _id: id, username: t('common.formerMember'), profilePicture: null }),
  };
};

/** `signedChatView`, kept while the chat and its chain stay the same. */
export const useSignedChat = (chat: ChatView | undefined, myId: string) => {
  const group = useVerifiedGroup(chat, myId);
  const shown = useMemo(() => (chat ? signedChatView(chat, group, myId) : undefined), [chat, group, myId]);
  return { chat: shown, group };
};
