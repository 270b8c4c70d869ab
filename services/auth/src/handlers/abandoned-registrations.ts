import { credentialsStreamId, DomainError, userRpc } from '@veil/contracts';
import { isVersionConflict, newEvent, rpcClient } from '@veil/kernel';
import type { Ports } from '@veil/ports';
import type { AuthReadModels } from '../projections/credentials.projection.ts';

/**
 * Registration is two steps in two services: the user service claims the username (and writes
 * the profile), then this service stores the password. A process that dies in between used to
 * leave the username claimed forever with no way to log in. This sweep finds claims that got no
 * credentials within `timeoutMs`, declares their credentials abandoned (an append with expected
 * version 0 on the credentials stream: if the credentials arrive after all, exactly one of the
 * two wins) and asks the user service to cancel the registration and free the name. Every auth
 * replica sweeps; the append makes them agree, and a cancel that failed is tried again.
 */
export const abandonedRegistrationSweep = (
  deps: Pick<Ports, 'bus' | 'rpc' | 'clock' | 'ids' | 'log'> & { models: AuthReadModels; timeoutMs: number },
) => {
  const users = rpcClient(deps.rpc, userRpc);
  return async () => {
    const cutoff = new Date(deps.clock.now().getTime() - deps.timeoutMs).toISOString();
    const stale = await deps.models.pendingRegistrations.find({ claimedAt: { $lt: cutoff } }, { limit: 100 });
    for (const registration of stale) {
      const { _id: userId, username } = registration;
      if (!registration.abandoned) {
        try {
          await deps.bus.append(
            'auth',
            newEvent(deps, 'CredentialsAbandoned', credentialsStreamId(userId), { userId, username }),
            { expectedVersion: 0 },
          );
        } catch (error) {
          if (isVersionConflict(error)) continue; // the credentials came, or another replica is on it
          throw error;
        }
        deps.log.warn({ userId, username }, 'a registration never got its credentials; freeing its username');
      }
      await users.cancelRegistration({ userId, username });
    }
  };
};

/** What registering credentials answers when the sweep has already given the registration up. */
export const registrationTimedOut = () =>
  new DomainError('UNAVAILABLE', 'Registration took too long and was undone; please register again');
