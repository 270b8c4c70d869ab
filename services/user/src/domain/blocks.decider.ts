import { DomainError, blockListAfter, limits, type EventData } from '@veil/contracts';
import type { Decider } from '@veil/kernel';

/** An account's block list (`blocks-<userId>`), folded from its stream: oldest block first. */
export interface BlocksState {
  blocked: string[];
}

/** The caller is the token's user; `otherUserId` is known to exist (the handler checked). */
export type BlocksCommand =
  | { type: 'Block'; userId: string; otherUserId: string }
  | { type: 'Unblock'; userId: string; otherUserId: string };

export type BlocksDecision =
  | { type: 'UserBlocked'; data: EventData<'UserBlocked'> }
  | { type: 'UserUnblocked'; data: EventData<'UserUnblocked'> };

/**
 * Blocking is one account's own say: it records nothing about the other user's stream, and
 * blocking twice or unblocking someone not blocked records nothing (a retry is harmless).
 */
export const blocksDecider: Decider<BlocksCommand, BlocksState, 'user', BlocksDecision> = {
  context: 'user',
  initialState: () => ({ blocked: [] }),
  evolve: (state, event) => {
    switch (event.type) {
      case 'UserBlocked':
      case 'UserUnblocked':
        return { blocked: blockListAfter(state.blocked, event) };
      default:
        return state;
    }
  },
  decide: (command, state) => {
    const { userId, otherUserId } = command;
    if (userId === otherUserId) throw new DomainError('VALIDATION_FAILED', 'You cannot block yourself');
    const isBlocked = state.blocked.includes(otherUserId);
    if (command.type === 'Unblock')
      return isBlocked ? [{ type: 'UserUnblocked', data: { userId, blockedUserId: otherUserId } }] : [];
    if (isBlocked) return [];
    if (state.blocked.length >= limits.blockedUsersMax)
      throw new DomainError('VALIDATION_FAILED', `You can block at most ${limits.blockedUsersMax} users`);
    return [{ type: 'UserBlocked', data: { userId, blockedUserId: otherUserId } }];
  },
};
