import { z } from 'zod';
import { idSchema } from '../events/event.ts';
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
});
