import { authRpc, chatRpc, messageRpc, userRpc } from '@veil/contracts';
import { rpcClient } from '@veil/kernel';
import type { Rpc } from '@veil/ports';

/** The gateway holds no domain logic: every route forwards to the owning service through these. */
export const serviceClients = (rpc: Rpc) => ({
  auth: rpcClient(rpc, authRpc),
  user: rpcClient(rpc, userRpc),
  chat: rpcClient(rpc, chatRpc),
  message: rpcClient(rpc, messageRpc),
});

export type ServiceClients = ReturnType<typeof serviceClients>;
