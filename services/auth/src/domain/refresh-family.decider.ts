import { DomainError } from '@veil/contracts';
import type { Decider } from '@veil/kernel';

/**
 * One refresh-token family (`rtf-<familyId>`): a login starts it, every refresh rotates it.
 * Only the newest token is valid; presenting an older one means it leaked, so the whole
 * family is revoked (OAuth 2.0 Security BCP, refresh token rotation with reuse detection).
 */
export interface RefreshFamilyState {
  userId: string | null;
  currentTokenId: string | null;
  currentDigest: string | null;
  expiresAt: string | null;
  startedAt: string | null;
  revoked: boolean;
}

/** The token a rotation hands out, minted by the handler (it holds the randomness). */
export interface NextToken {
  tokenId: string;
  tokenDigest: string;
  expiresAt: string;
}

/** What a refresh needs to know of the account, read by the handler from its credentials. */
export interface AccountStanding {
  disabled: boolean;
  passwordChangedAt?: string | null | undefined;
}

export type RefreshFamilyCommand =
  | { type: 'StartFamily'; userId: string; familyId: string; next: NextToken }
  | {
      type: 'RotateToken';
      familyId: string;
      presented: { tokenId: string; digest: string };
      account: AccountStanding | null;
      now: Date;
      next: NextToken;
    }
  | { type: 'EndFamily'; familyId: string; reason: 'logout' | 'password-change' };

export const invalidRefresh = () => new DomainError('TOKEN_INVALID', 'Invalid refresh token');

/**
 * A rotation answers the next token, or, for a token that is not the family's newest (it was
 * copied), the family's revocation: the handler records it, ends the session and refuses.
 * Everything else it refuses outright: an unknown or revoked family, a forged token, an expired
 * one, an account disabled or whose password changed since the family began.
 */
export const refreshFamilyDecider: Decider<RefreshFamilyCommand, RefreshFamilyState, 'auth'> = {
  context: 'auth',
  initialState: () => ({
    userId: null,
    currentTokenId: null,
    currentDigest: null,
    expiresAt: null,
    startedAt: null,
    revoked: false,
  }),
  decide(command, state) {
    switch (command.type) {
      case 'StartFamily':
        if (state.userId) throw new DomainError('VERSION_CONFLICT', 'This session already exists');
        return [
          {
            type: 'RefreshTokenIssued',
            data: { userId: command.userId, familyId: command.familyId, ...command.next },
          },
        ];
      case 'EndFamily':
        if (!state.userId || state.revoked) return [];
        return [
          {
            type: 'RefreshFamilyRevoked',
            data: { userId: state.userId, familyId: command.familyId, reason: command.reason },
          },
        ];
      case 'RotateToken': {
        const { userId } = state;
        if (!userId || state.revoked) throw invalidRefresh();
        if (state.currentTokenId !== command.presented.tokenId) {
          return [
            { type: 'RefreshFamilyRevoked', data: { userId, familyId: command.familyId, reason: 'reuse' } },
          ];
        }
        if (state.currentDigest !== command.presented.digest) throw invalidRefresh();
        if (Date.parse(state.expiresAt!) <= command.now.getTime()) {
          throw new DomainError('TOKEN_EXPIRED', 'Refresh token expired; please log in again');
        }
        const { account } = command;
        if (!account || account.disabled) throw invalidRefresh();
        if (account.passwordChangedAt && account.passwordChangedAt > state.startedAt!) throw invalidRefresh();
        return [
          { type: 'RefreshTokenIssued', data: { userId, familyId: command.familyId, ...command.next } },
        ];
      }
    }
  },
  evolve: (state, event) => {
    switch (event.type) {
      case 'RefreshTokenIssued':
        return {
          ...state,
          userId: event.data.userId,
          currentTokenId: event.data.tokenId,
          currentDigest: event.data.tokenDigest,
          expiresAt: event.data.expiresAt,
          startedAt: state.startedAt ?? event.occurredAt,
        };
      case 'RefreshFamilyRevoked':
        return { ...state, revoked: true };
      case 'CredentialsRegistered':
      case 'CredentialsAbandoned':
      case 'PasswordChanged':
      case 'AccountSuspended':
      case 'AccountUnsuspended':
        return state;
      default: {
        const unhandled: never = event;
        return unhandled;
      }
    }
  },
};
