import { z } from 'zod';
import { signedGroupChangeSchema, type SignedGroupChangeData } from '../events/chat.events.ts';

/**
 * One change to a group as the server recorded it (`GET /chat/:chatId/changes`): the event's
 * type, the caller the server says made it, when, and the signed change it carried, if any.
 * Browsers trust only `signedChange`, after verifying it (docs/crypto.md, "Signed group state").
 */
export interface GroupChangeEntry {
  type:
    | 'GroupChatCreated'
    | 'ChatMembersAdded'
    | 'ChatMemberRemoved'
    | 'ChatMemberLeft'
    | 'ChatAdminPromoted'
    | 'GroupRenamed'
    | 'GroupPictureChanged'
    | 'DisappearingTimerSet'
    | 'GroupStateSigned';
  by: string;
  at: string;
  signedChange: SignedGroupChangeData | null;
}

/** The body of a group change from a browser: the change the caller signed (optional for HTTP clients; on `creategroupchat`, a `created` change naming the group's id). */
export const signedChangeBodySchema = z.object({ signedChange: signedGroupChangeSchema.optional() });

/** `POST /chat/:chatId/changes/snapshot`: an admin's signed snapshot of the group's state. */
export const signGroupStateBodySchema = z.object({ signedChange: signedGroupChangeSchema });
