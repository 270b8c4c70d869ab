import {
  DomainError,
  keyLogStreamId,
  publicKeySchema,
  type KeyLogEntryView,
  type UserEvent,
} from '@veil/contracts';
import { importPublicKeySpkiBase64, importSigningPublicKeySpkiBase64, nextKeyLogEntry } from '@veil/crypto';
import { newEvent, withRetry } from '@veil/kernel';
import type { Clock, EventStore, IdGenerator } from '@veil/ports';

/**
 * Appending to an account's key-change log (`keylog-<userId>`): the entry is built from the last
 * one in the stream and appended with that version, so two racing publications cannot both
 * extend the same entry; the loser re-reads and decides again.
 */
type Deps = { store: EventStore; clock: Clock; ids: IdGenerator };

export type PublishedKeys = Pick<KeyLogEntryView, 'encryptionKey' | 'signingKey' | 'reason'>;

const invalid = (message: string) => new DomainError('VALIDATION_FAILED', message);

/** The encryption key must be a real RSA-OAEP SPKI key: a garbage key would make every message to this user unreadable. */
export const checkEncryptionKey = async (publicKey: string): Promise<void> => {
  const refused = () => invalid('publicKey must be a base64 RSA-OAEP public key (SPKI)');
  if (!publicKeySchema.safeParse(publicKey).success) throw refused();
  try {
    await importPublicKeySpkiBase64(publicKey);
  } catch {
    throw refused();
  }
};

export const checkSigningKey = async (signingKey: string): Promise<void> => {
  try {
    await importSigningPublicKeySpkiBase64(signingKey);
  } catch {
    throw invalid('signingKey must be a base64 ECDSA P-256 public key (SPKI)');
  }
};

/**
 * Appends the entry `decide` returns given the log's last entry (null for an empty log); `decide`
 * may refuse by throwing. Resolves the appended position.
 */
export const appendKeyLogEntry = (
  deps: Deps,
  userId: string,
  decide: (last: KeyLogEntryView | null) => PublishedKeys,
): Promise<number> =>
  withRetry(async () => {
    const streamId = keyLogStreamId(userId);
    const recorded = await deps.store.readLast('user', streamId);
    const lastEvent = recorded?.event as UserEvent | undefined;
    const last = lastEvent?.type === 'KeysPublished' ? lastEvent.data.entry : null;
    const entry = await nextKeyLogEntry(last, { ...decide(last), at: deps.clock.now().toISOString() });
    const { position } = await deps.store.append(
      'user',
      newEvent(deps, 'KeysPublished', streamId, { userId, entry }),
      { expectedVersion: recorded?.position ?? 0 },
    );
    return position;
  });
