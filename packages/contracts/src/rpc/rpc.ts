import type { z } from 'zod';

/**
 * An RPC contract: each operation's input schema (validated by the serving side) and its output
 * type. The typed client and server helpers in @veil/kernel are generated from these, so no
 * caller ever writes an operation name as a loose string.
 */
export interface RpcOperation<TInput extends z.ZodType = z.ZodType, TOutput = unknown> {
  input: TInput;
  /**
   * Every caller builds this input from a request it parsed at the edge with a schema at least
   * as strict (a contract test holds them to it), and the schema neither defaults nor transforms:
   * a transport that hands values over in the same process (`Rpc.handsOverValues`) serves it
   * without parsing it a second time. Over a wire it is parsed as every input is.
   */
  checkedAtEdge?: true;
  /** Phantom: carries the output type only. */
  output?: TOutput;
}

export type RpcContract = Record<string, RpcOperation>;

export const operation =
  <TOutput>() =>
  <TInput extends z.ZodType>(
    input: TInput,
    options: { checkedAtEdge?: true } = {},
  ): RpcOperation<TInput, TOutput> => ({
    input,
    ...options,
  });

export type RpcInput<Op> = Op extends RpcOperation<infer I, unknown> ? z.input<I> : never;
export type RpcOutput<Op> = Op extends RpcOperation<z.ZodType, infer O> ? O : never;

export interface RpcService<C extends RpcContract = RpcContract> {
  name: string;
  operations: C;
}

export const defineRpcService = <C extends RpcContract>(name: string, operations: C): RpcService<C> => ({
  name,
  operations,
});
