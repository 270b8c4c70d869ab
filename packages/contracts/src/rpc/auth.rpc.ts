import { z } from 'zod';
import { idSchema } from '../events/event.ts';
import type { SuspendedAccount } from '../http/report.schemas.ts';
import { defineRpcService, operation } from './rpc.ts';

export interface TokenPair {
  accessToken: string;
  refreshToken: string;
  accessTokenExpiresAt: string;
}

/** The auth service: owns credentials and refresh-token families. */
export const authRpc = defineRpcService('auth', {
  registerCredentials: operation<Record<string, never>>()(
    z.object({ userId: idSchema, username: z.string(), password: z.string() }),
  ),
  login: operation<TokenPair & { userId: string }>()(
    z.object({ username: z.string(), password: z.string(), clientIp: z.string() }),
  ),
  refresh: operation<TokenPair & { userId: string }>()(z.object({ refreshToken: z.string() })),
  changePassword: operation<Record<string, never>>()(
    z.object({ userId: idSchema, currentPassword: z.string(), password: z.string(), clientIp: z.string() }),
  ),
  logout: operation<Record<string, never>>()(z.object({ refreshToken: z.string() })),
  /**
   * An operator suspends an account: its sessions end and it cannot log in until unsuspended
   * (`by` is the operator, from the verified token; the gateway checks the role).
   */
  suspend: operation<Record<string, never>>()(
    z.object({ userId: idSchema, by: idSchema, reportId: idSchema.optional() }),
  ),
  unsuspend: operation<Record<string, never>>()(z.object({ userId: idSchema, by: idSchema })),
  /** Every suspended account, most recently suspended first. */
  suspended: operation<{ accounts: Omit<SuspendedAccount, 'username'>[] }>()(z.object({})),
});
