import {
  exportPublicKeySpkiBase64,
  generateSigningKeyPair,
  generateUserKeyPair,
  signKeyLogEntry,
} from '@veil/crypto';
import { describe, expect, it } from 'vitest';
import { currentUserId, openChat, sayHi, signedUpPerson } from './flows.ts';
import { useVeilWeb } from './harness.ts';

/** A JSON answer of Veil's API (`{success, message, data}`). */
interface Answer<T> {
  success: boolean;
  data: T;
}

/**
 * A split view caught in ordinary use: the hostile proxy shows Alice, who has never seen Bob, a
 * key log for Bob of its own making (signed, so it checks out on first use), and shows Bob his
 * real one. Alice's signed message names the head she saw for Bob; Bob's browser finds it in no
 * log it sees and warns.
 */
describe('split views (browser)', { timeout: 240_000 }, () => {
  const veil = useVeilWeb({ hostile: true });

  it('warns the reader when a message names a key-log head for them that their own log does not hold', async () => {
    const proxy = veil().proxy;
    const alice = await signedUpPerson(veil(), 'sva');
    const bob = await signedUpPerson(veil(), 'svb');
    const [aliceId, bobId] = await Promise.all([currentUserId(alice.page), currentUserId(bob.page)]);

    const [encryption, signing] = await Promise.all([generateUserKeyPair(), generateSigningKeyPair()]);
    const keys = {
      encryptionKey: await exportPublicKeySpkiBase64(encryption.publicKey),
      signingKey: await exportPublicKeySpkiBase64(signing.publicKey),
    };
    const forged = await signKeyLogEntry(null, { ...keys, reason: 'registered' }, signing.privateKey);
    proxy.rewriteJson({ method: 'GET', path: '/api/v1/users/:id/keyLog' }, (body, { params, viewer }) => {
      if (params.id !== bobId || viewer !== aliceId) return undefined;
      const { data } = body as Answer<{ current: Record<string, unknown> }>;
      return { ...(body as object), data: { entries: [forged], current: { ...data.current, ...keys } } };
    });

    await sayHi(alice.page, bob.name);
    await openChat(bob.page, alice.name);
    const warning = bob.page.getByTestId('split-view');
    await expect.poll(() => warning.count(), { timeout: 30_000 }).toBeGreaterThan(0);
    expect(await warning.first().getAttribute('data-member')).toBe(bobId);
    const text = await warning.first().innerText();
    expect(text).toContain(`${alice.name} and you see different keys for you.`);
    expect(text).toContain(forged.hash.slice(0, 12));
  });
});
