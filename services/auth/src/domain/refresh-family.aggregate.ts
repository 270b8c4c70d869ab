import type { Aggregate } from '@veil/kernel';

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

export const refreshFamilyAggregate: Aggregate<RefreshFamilyState, 'auth'> = {
  context: 'auth',
  initialState: () => ({
    userId: null,
    currentTokenId: null,
    currentDigest: null,
    expiresAt: null,
    startedAt: null,
    revoked: false,
  }),
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
        return state;
      default: {
        const unhandled: never = event;
        return unhandled;
      }
    }
  },
};
