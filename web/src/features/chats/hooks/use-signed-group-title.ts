import type { ChatView } from '@veil/contracts';
import { useEffect, useState, type RefObject } from 'react';
import { verifiedGroupFor } from '../../keys/index.ts';
import { chatTitle } from '../../messages/index.ts';
import { whenRowShown } from './row-visibility.ts';

/**
 * The title a chat-list row shows: for a group, the name its verified chain gives once the row
 * comes into view (docs/crypto.md, "Signed group state"), so a server that renames a group without
 * an admin's signature is not believed in the list either; the server's name until then, and for
 * a group whose state is not signed yet.
 */
export const useSignedGroupTitle = (row: RefObject<Element | null>, chat: ChatView, myId: string) => {
  const [signedName, setSignedName] = useState<{ chat: ChatView; name: string }>();
  useEffect(() => {
    const element = row.current;
    if (!chat.isGroupChat || !element) return;
    let live = true;
    const stopWatching = whenRowShown(element, () => {
      verifiedGroupFor(myId, chat)
        .then((group) => {
          if (live && group.status === 'signed' && group.state)
            setSignedName({ chat, name: group.state.name });
        })
        .catch(() => {
          // Not fetched now: the row keeps the server's name, as an unsigned group's does.
        });
    });
    return () => {
      live = false;
      stopWatching();
    };
  }, [row, chat, myId]);
  // A name checked for this chat's earlier view stays shown while the new view is checked.
  return signedName?.chat._id === chat._id ? signedName.name : chatTitle(chat);
};
