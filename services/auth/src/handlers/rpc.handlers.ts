import {
  DomainError,
  credentialsStreamId,
  newPasswordSchema,
  refreshFamilyStreamId,
  sessionStreamId,
  type authRpc,
  type TokenPair,
} from '@veil/contracts';
import {
  isVersionConflict,
  loadAggregate,
  newEvent,
  type RpcImplementation,
  type RunningProjection,
} from '@veil/kernel';
import type { Ports } from '@veil/ports';
import { dummyHashPromise, hashPassword, verifyPassword } from '../infra/password-hash.ts';
import { refreshFamilyAggregate } from '../domain/refresh-family.aggregate.ts';
import { digestRefreshToken, mintRefreshToken, parseRefreshToken } from '../infra/refresh-token.ts';
import { registrationTimedOut } from './abandoned-registrations.ts';
import type { LoginThrottle } from './login-throttle.ts';
import type { AuthReadModels } from '../projections/credentials.projection.ts';

type Deps = Pick<Ports, 'clock' | 'ids' | 'log'> & {
  store: Ports['bus'];
  models: AuthReadModels;
  projection: RunningProjection;
  throttle: LoginThrottle;
  signAccessToken: (
    userId: string,
    sessionId: string,
    now: Date,
  ) => Promise<{ token: string; expiresAt: Date }>;
  refreshTokenTtlSeconds: number;
};

const invalidCredentials = () => new DomainError('INVALID_CREDENTIALS', 'Invalid username or password');
const invalidRefresh = () => new DomainError('TOKEN_INVALID', 'Invalid refresh token');

const checkNewPassword = (password: string) => {
  const parsed = newPasswordSchema.safeParse(password);
  if (!parsed.success) throw new DomainError('VALIDATION_FAILED', parsed.error.issues[0]!.message);
};

export const authRpcHandlers = (deps: Deps): RpcImplementation<typeof authRpc.operations> => {
  const { store, models, projection } = deps;

  const revokeFamily = async (
    familyId: string,
    userId: string,
    reason: 'reuse' | 'logout' | 'password-change',
  ) => {
    // The session's access tokens first (the gateways refuse them from then on), then its
    // refresh tokens: a crash in between leaves a dead session, never a live access token.
    await store.append(
      'access',
      newEvent(deps, 'SessionRevoked', sessionStreamId(familyId), { userId, sessionId: familyId, reason }),
    );
    const { position } = await store.append(
      'auth',
      newEvent(deps, 'RefreshFamilyRevoked', refreshFamilyStreamId(familyId), { userId, familyId, reason }),
    );
    return position;
  };

  /** Appends the family's next token with the version read, so one token can be rotated only once. */
  const issueTokens = async (
    userId: string,
    familyId: string,
    expectedVersion: number,
  ): Promise<TokenPair> => {
    const now = deps.clock.now();
    const tokenId = deps.ids.next();
    const refreshToken = mintRefreshToken(familyId, tokenId);
    const expiresAt = new Date(now.getTime() + deps.refreshTokenTtlSeconds * 1000).toISOString();
    await store.append(
      'auth',
      newEvent(deps, 'RefreshTokenIssued', refreshFamilyStreamId(familyId), {
        userId,
        familyId,
        tokenId,
        tokenDigest: digestRefreshToken(refreshToken),
        expiresAt,
      }),
      { expectedVersion },
    );
    const access = await deps.signAccessToken(userId, familyId, now);
    return { accessToken: access.token, refreshToken, accessTokenExpiresAt: access.expiresAt.toISOString() };
  };

  return {
    async registerCredentials({ userId, username, password }) {
      checkNewPassword(password);
      const passwordHash = await hashPassword(password);
      const { position } = await store
        .append(
          'auth',
          newEvent(deps, 'CredentialsRegistered', credentialsStreamId(userId), {
            userId,
            username,
            passwordHash,
          }),
          { expectedVersion: 0 },
        )
        .catch((error: unknown) => {
          // Only an abandoned registration has written this stream before.
          throw isVersionConflict(error) ? registrationTimedOut() : error;
        });
      await projection.waitFor('auth', position);
      return {};
    },

    async login({ username, password, clientIp }) {
      await deps.throttle.check(username, clientIp);
      const [account] = await models.credentials.find(
        { usernameLower: username.trim().toLowerCase(), disabled: false },
        { limit: 1 },
      );
      const ok = await verifyPassword(password, account?.passwordHash ?? (await dummyHashPromise));
      if (!account || !ok) {
        await deps.throttle.recordFailure(username, clientIp);
        throw invalidCredentials();
      }
      await deps.throttle.recordSuccess(username, clientIp);
      const tokens = await issueTokens(account._id, deps.ids.next(), 0);
      return { ...tokens, userId: account._id };
    },

    async refresh({ refreshToken }) {
      const parsed = parseRefreshToken(refreshToken);
      if (!parsed) throw invalidRefresh();
      const { state, version } = await loadAggregate(
        store,
        refreshFamilyAggregate,
        refreshFamilyStreamId(parsed.familyId),
      );
      if (!state.userId || state.revoked) throw invalidRefresh();
      if (state.currentTokenId !== parsed.tokenId) {
        await revokeFamily(parsed.familyId, state.userId, 'reuse');
        throw new DomainError('TOKEN_REUSED', 'Refresh token was already used; please log in again');
      }
      if (state.currentDigest !== digestRefreshToken(refreshToken)) throw invalidRefresh();
      if (Date.parse(state.expiresAt!) <= deps.clock.now().getTime()) {
        throw new DomainError('TOKEN_EXPIRED', 'Refresh token expired; please log in again');
      }
      const account = await models.credentials.get(state.userId);
      if (!account || account.disabled) throw invalidRefresh();
      if (account.passwordChangedAt && account.passwordChangedAt > state.startedAt!) throw invalidRefresh();
      try {
        return { ...(await issueTokens(state.userId, parsed.familyId, version)), userId: state.userId };
      } catch (error) {
        // Someone rotated this very token a moment ago: two uses of one token, so treat it as reuse.
        if (!isVersionConflict(error)) throw error;
        await revokeFamily(parsed.familyId, state.userId, 'reuse');
        throw new DomainError('TOKEN_REUSED', 'Refresh token was already used; please log in again');
      }
    },

    async changePassword({ userId, currentPassword, password, clientIp }) {
      checkNewPassword(password);
      const account = await models.credentials.get(userId);
      if (!account) throw new DomainError('USER_NOT_FOUND', 'User not found');
      // Checked like a login, on the same counters: a stolen session cannot guess faster here.
      await deps.throttle.check(account.usernameLower, clientIp);
      if (!(await verifyPassword(currentPassword, account.passwordHash))) {
        await deps.throttle.recordFailure(account.usernameLower, clientIp);
        throw new DomainError('WRONG_PASSWORD', 'The current password is wrong');
      }
      await deps.throttle.recordSuccess(account.usernameLower, clientIp);
      const passwordHash = await hashPassword(password);
      let { position } = await store.append(
        'auth',
        newEvent(deps, 'PasswordChanged', credentialsStreamId(userId), { userId, passwordHash }),
      );
      for (const family of await models.families.find({ userId, revoked: false })) {
        position = await revokeFamily(family._id, userId, 'password-change');
      }
      await projection.waitFor('auth', position);
      return {};
    },

    async logout({ refreshToken }) {
      const parsed = parseRefreshToken(refreshToken);
      if (!parsed) return {};
      const { state } = await loadAggregate(
        store,
        refreshFamilyAggregate,
        refreshFamilyStreamId(parsed.familyId),
      );
      if (state.userId && !state.revoked && state.currentDigest === digestRefreshToken(refreshToken)) {
        await revokeFamily(parsed.familyId, state.userId, 'logout');
      }
      return {};
    },
  };
};
