import type { z } from 'zod';

/**
 * An RPC contract: each operation's input schema (validated by the serving side) and its output
 * type. The typed client and server helpers in @veil/kernel are generated from these, so no
 * caller ever writes an operation name as a loose string.
 */
export interface RpcOperation<TInput extends z.ZodType = z.ZodType, TOutput = unknown> {
  input: TInput;
  /** Phantom: carries the output type only. */
  output?: TOutput;
}

export type RpcContract = Record<string, RpcOperation>;

export const operation =
  <TOutput>() =>
  <TInput extends z.ZodType>(input: TInput): RpcOperation<TInput, TOutput> => ({
    input,
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
