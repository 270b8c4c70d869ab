import { DomainError } from '@veil/contracts';

/** What a block rule needs to know of a person: who they blocked. */
export interface BlockingPerson {
  _id: string;
  blocked?: readonly string[] | undefined;
}

/** Whether either of the two blocked the other. */
export const blockedBetween = (a: BlockingPerson, b: BlockingPerson): boolean =>
  Boolean(a.blocked?.includes(b._id) || b.blocked?.includes(a._id));

/**
 * A caller may not start a chat with, or add to a group, someone they blocked or who blocked
 * them. The refusal names no one and says not who blocked (docs/decisions.md, "Blocking").
 */
export const checkMayReach = (caller: BlockingPerson, others: readonly BlockingPerson[]): void => {
  if (others.some((other) => other._id !== caller._id && blockedBetween(caller, other)))
    throw new DomainError('CONTACT_UNAVAILABLE', 'This user is not available');
};
