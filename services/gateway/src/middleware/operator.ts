import type { RequestHandler } from 'express';
import { DomainError } from '@veil/contracts';
import type { ServiceClients } from '../rpc-clients.ts';
import { currentUserId } from './auth.ts';

/**
 * The operator role, granted by configuration: the usernames the instance names as operators
 * (docs/decisions.md, "Operators and suspension"). The caller's current username is asked of the
 * user service each time, so a rename takes the role away at once.
 */
export const operatorRole = (services: ServiceClients, operators: readonly string[]) => {
  const names = new Set(operators.map((name) => name.toLowerCase()));
  const isOperator = async (userId: string): Promise<boolean> => {
    if (!names.size) return false;
    const { user } = await services.user.get({ userId });
    return names.has(user.username.toLowerCase());
  };
  const requireOperator: RequestHandler = async (_req, res, next) => {
    try {
      if (await isOperator(currentUserId(res))) return next();
      next(new DomainError('FORBIDDEN', 'This needs the operator role'));
    } catch (error) {
      next(error);
    }
  };
  return { isOperator, requireOperator };
};

export type OperatorRole = ReturnType<typeof operatorRole>;
