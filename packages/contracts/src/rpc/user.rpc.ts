import { z } from 'zod';
import { idSchema } from '../events/event.ts';
import type { PublicUser } from '../http/schemas.ts';
import { defineRpcService, operation } from './rpc.ts';

/** The user service: owns usernames, profiles and public keys. */
export const userRpc = defineRpcService('user', {
  register: operation<{ user: PublicUser }>()(
    z.object({ username: z.string(), publicKey: z.string(), pictureKey: z.string().nullable() }),
  ),
  /**
   * Undoes a registration: cancels the profile if it was made, and frees the username (given
   * when the profile may never have been written: the claim is all there is).
   */
  cancelRegistration: operation<Record<string, never>>()(
    z.object({ userId: idSchema, username: z.string().max(100).optional() }),
  ),
  get: operation<{ user: PublicUser }>()(z.object({ userId: idSchema })),
  getMany: operation<{ users: PublicUser[] }>()(z.object({ userIds: z.array(idSchema).max(1000) })),
  list: operation<{ users: PublicUser[] }>()(z.object({})),
  search: operation<{ users: PublicUser[] }>()(z.object({ query: z.string().max(200) })),
  publicKey: operation<{ publicKey: string }>()(z.object({ userId: idSchema })),
  /** Returns the replaced picture key, so the caller can delete that blob. */
  updateProfile: operation<{ user: PublicUser; replacedPictureKey: string | null }>()(
    z.object({
      userId: idSchema,
      username: z.string().optional(),
      pictureKey: z.string().nullable().optional(),
    }),
  ),
});
