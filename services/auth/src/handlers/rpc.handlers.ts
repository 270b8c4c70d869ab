import {
  DomainError,
  credentialsStreamId,
  newPasswordSchema,
  refreshFamilyStreamId,
  sessionStreamId,
  type authRpc,
  type EventData,
  type TokenPair,
} from '@veil/contracts';
import {
  appendDecided,
  isVersionConflict,
  loadAggregate,
  newEvent,
  type RpcImplementation,
  type RunningProjection,
} from '@veil/kernel';
import type { Ports } from '@veil/ports';
import { dummyHashPromise, hashPassword, verifyPassword } from '../infra/password-hash.ts';
import {
  invalidRefresh,
  refreshFamilyDecider,
  type RefreshFamilyCommand,
  type RefreshFamilyState,
} from '../domain/refresh-family.decider.ts';
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
const suspendedAccount = () =>
  new DomainError('ACCOUNT_SUSPENDED', 'This account has been suspended by the operators of this server');
const tokenReused = () =>
  new DomainError('TOKEN_REUSED', 'Refresh token was already used; please log in again');

const checkNewPassword = (password: string) => {
  const parsed = newPasswordSchema.safeParse(password);
  if (!parsed.success) throw new DomainError('VALIDATION_FAILED', parsed.error.issues[0]!.message);
};

export const authRpcHandlers = (deps: Deps): RpcImplementation<typeof authRpc.operations> => {
  const { store, models, projection } = deps;

  const loadFamily = (familyId: string) =>
    loadAggregate(store, refreshFamilyDecider, refreshFamilyStreamId(familyId));

  /**
   * Records a family's revocation: the session's access tokens first (the gateways refuse them
   * from then on), then its refresh tokens: a crash in between leaves a dead session, never a
   * live access token.
   */
  const recordRevocation = async ({ userId, familyId, reason }: EventData<'RefreshFamilyRevoked'>) => {
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

  /** A new refresh token of a family, minted here (the decider decides whether it is issued). */
  const mintNext = (familyId: string) => {
    const tokenId = deps.ids.next();
    const refreshToken = mintRefreshToken(familyId, tokenId);
    const expiresAt = new Date(deps.clock.now().getTime() + deps.refreshTokenTtlSeconds * 1000).toISOString();
    return { refreshToken, next: { tokenId, tokenDigest: digestRefreshToken(refreshToken), expiresAt } };
  };

  /**
   * Records what the decider decided for a login or a refresh. An issued token is appended with
   * the version read, so one token can be rotated only once; a revocation for reuse is recorded
   * and refused.
   */
  const recordIssue = async (
    command: Extract<RefreshFamilyCommand, { type: 'StartFamily' | 'RotateToken' }>,
    refreshToken: string,
    { state, version }: { state: RefreshFamilyState; version: number },
  ): Promise<TokenPair & { userId: string }> => {
    const [event] = refreshFamilyDecider.decide(command, state);
    if (event?.type === 'RefreshFamilyRevoked') {
      await recordRevocation(event.data);
      throw tokenReused();
    }
    if (event?.type !== 'RefreshTokenIssued')
      throw new Error('A login or a refresh decides a token or a revocation');
    const { userId, familyId } = event.data;
    let positions: number[];
    try {
      positions = await appendDecided(deps, 'auth', refreshFamilyStreamId(familyId), [event], version);
    } catch (error) {
      // Someone rotated this very token a moment ago: two uses of one token, so treat it as reuse.
      if (!isVersionConflict(error) || command.type !== 'RotateToken') throw error;
      await recordRevocation({ userId, familyId, reason: 'reuse' });
      throw tokenReused();
    }
    if (command.type === 'StartFamily') {
      // A suspension appended while this login ran: either it is applied by now, or it comes
      // after this family, which its revocations then include (`suspend`).
      await projection.waitFor('auth', positions.at(-1)!);
      if (await models.suspensions.get(userId)) {
        await recordRevocation({ userId, familyId, reason: 'suspension' });
        throw suspendedAccount();
      }
    }
    const access = await deps.signAccessToken(userId, familyId, deps.clock.now());
    return {
      accessToken: access.token,
      refreshToken,
      accessTokenExpiresAt: access.expiresAt.toISOString(),
      userId,
    };
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
      // Said only to whoever knows the password: a suspension is not revealed to guessers.
      if (await models.suspensions.get(account._id)) throw suspendedAccount();
      const familyId = deps.ids.next();
      const { refreshToken, next } = mintNext(familyId);
      const command = { type: 'StartFamily', userId: account._id, familyId, next } as const;
      // A new family id: its stream is empty, nothing to read.
      return recordIssue(command, refreshToken, { state: refreshFamilyDecider.initialState(), version: 0 });
    },

    async refresh({ refreshToken }) {
      const parsed = parseRefreshToken(refreshToken);
      if (!parsed) throw invalidRefresh();
      const { familyId, tokenId } = parsed;
      const family = await loadFamily(familyId);
      const { state } = family;
      const account = state.userId ? await models.credentials.get(state.userId) : null;
      const { refreshToken: nextToken, next } = mintNext(familyId);
      const presented = { tokenId, digest: digestRefreshToken(refreshToken) };
      const suspended = account ? await models.suspensions.get(account._id) : null;
      const standing = account && {
        disabled: account.disabled || Boolean(suspended),
        passwordChangedAt: account.passwordChangedAt,
      };
      return recordIssue(
        { type: 'RotateToken', familyId, presented, account: standing, now: deps.clock.now(), next },
        nextToken,
        family,
      );
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
        position = await recordRevocation({ userId, familyId: family._id, reason: 'password-change' });
      }
      await projection.waitFor('auth', position);
      return {};
    },

    /**
     * Suspension is an event of the account's credentials stream; then every live session ends
     * (its access tokens refused by the gateways, its sockets dropped, its refresh tokens dead).
     * Its messages are left as they are. Suspending a suspended account ends any session left.
     */
    async suspend({ userId, by, reportId }) {
      const account = await models.credentials.get(userId);
      if (!account || account.disabled) throw new DomainError('USER_NOT_FOUND', 'User not found');
      let { position } = (await models.suspensions.get(userId))
        ? { position: 0 }
        : await store.append(
            'auth',
            newEvent(deps, 'AccountSuspended', credentialsStreamId(userId), {
              userId,
              by,
              ...(reportId && { reportId }),
            }),
          );
      // Applied first: a login that passed the check before it holds a family listed below.
      await projection.waitFor('auth', position);
      for (const family of await models.families.find({ userId, revoked: false })) {
        position = await recordRevocation({ userId, familyId: family._id, reason: 'suspension' });
      }
      await projection.waitFor('auth', position);
      deps.log.info({ audit: 'account-suspended', userId, by, reportId }, 'account suspended');
      return {};
    },

    async unsuspend({ userId, by }) {
      if (!(await models.suspensions.get(userId)))
        throw new DomainError('NOT_FOUND', 'This account is not suspended');
      const { position } = await store.append(
        'auth',
        newEvent(deps, 'AccountUnsuspended', credentialsStreamId(userId), { userId, by }),
      );
      await projection.waitFor('auth', position);
      deps.log.info({ audit: 'account-unsuspended', userId, by }, 'account unsuspended');
      return {};
    },

    async suspended() {
      const docs = await models.suspensions.find({}, { sort: { at: -1 }, limit: 1000 });
      return { accounts: docs.map((doc) => ({ userId: doc._id, suspendedAt: doc.at, suspendedBy: doc.by })) };
    },

    async logout({ refreshToken }) {
      const parsed = parseRefreshToken(refreshToken);
      if (!parsed) return {};
      const { familyId } = parsed;
      const { state } = await loadFamily(familyId);
      // Only the family's newest token logs it out: an old copy must not end someone's session.
      if (state.currentDigest !== digestRefreshToken(refreshToken)) return {};
      const [revoked] = refreshFamilyDecider.decide({ type: 'EndFamily', familyId, reason: 'logout' }, state);
      if (revoked?.type === 'RefreshFamilyRevoked') await recordRevocation(revoked.data);
      return {};
    },
  };
};
