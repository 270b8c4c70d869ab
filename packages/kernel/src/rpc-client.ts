import {
  DomainError,
  type RpcContract,
  type RpcInput,
  type RpcOutput,
  type RpcService,
} from '@veil/contracts';
import type { Rpc, RpcCallOptions, RpcServeHandle } from '@veil/ports';
import type { z } from 'zod';

/** A typed client for one service: `client.send(input)` instead of `rpc.call('message', 'send', input)`. */
export type RpcClient<C extends RpcContract> = {
  [K in keyof C]: (input: RpcInput<C[K]>, options?: RpcCallOptions) => Promise<RpcOutput<C[K]>>;
};

export const rpcClient = <C extends RpcContract>(rpc: Rpc, service: RpcService<C>): RpcClient<C> => {
  const client = {} as Record<string, unknown>;
  for (const operation of Object.keys(service.operations)) {
    client[operation] = (input: unknown, options?: RpcCallOptions) =>
      rpc.call(service.name, operation, input, options);
  }
  return client as RpcClient<C>;
};

export type RpcImplementation<C extends RpcContract> = {
  [K in keyof C]: (input: z.output<C[K]['input']>) => Promise<RpcOutput<C[K]>>;
};

/**
 * Serves a contract: each input is parsed with its schema before the handler sees it, so
 * handlers get typed, validated data; a schema violation replies VALIDATION_FAILED. An input
 * checked at the edge and handed over in process is not parsed twice (`checkedAtEdge`).
 */
export const serveRpc = <C extends RpcContract>(
  rpc: Rpc,
  service: RpcService<C>,
  implementation: RpcImplementation<C>,
): Promise<RpcServeHandle> => {
  const handlers: Record<string, (payload: unknown) => Promise<unknown>> = {};
  for (const [name, op] of Object.entries(service.operations)) {
    const handler = implementation[name as keyof C];
    if (op.checkedAtEdge && rpc.handsOverValues) {
      handlers[name] = (payload) => handler(payload as never);
      continue;
    }
    handlers[name] = async (payload) => {
      const parsed = op.input.safeParse(payload);
      if (!parsed.success) {
        throw new DomainError('VALIDATION_FAILED', parsed.error.issues[0]?.message ?? 'Invalid input');
      }
      return handler(parsed.data as never);
    };
  }
  return rpc.serve(service.name, handlers);
};
