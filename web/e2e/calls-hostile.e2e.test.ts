import type { CallSignalDelivery } from '@veil/contracts';
import {
  generateSigningKeyPair,
  importPublicKeySpkiBase64,
  nonExtractableSigningKey,
  sealCallSignal,
  type CallSignalBody,
} from '@veil/crypto';
import type { Page } from 'playwright-core';
import type { SocketEvent } from '@veil/test-env';
import { beforeAll, describe, expect, it } from 'vitest';
import { callStatus, callers, incomingCall, keepPeerConnections } from './calls-support.ts';
import {
  createGroupOverApi,
  currentUserId,
  openChat,
  openGroupInfo,
  signedUpPerson,
  uniqueName,
} from './flows.ts';
import { useVeilWeb } from './harness.ts';

/**
 * The server plays the attacker on calls: a proxy in front of a stock Veil swaps or injects call
 * signals, with everything a server has (the routing, the public keys, a signing key of its own)
 * but neither party's private keys. The browsers refuse each forgery with the warning, and what
 * passed through the server never held a session description or a candidate in the clear.
 */
describe('a hostile server on calls (browser)', { timeout: 240_000 }, () => {
  const veil = useVeilWeb({ hostile: true });
  const poll = { timeout: 30_000, interval: 250 };
  let attackerSigningKey: CryptoKey;
  const attackerFingerprint = `sha-256 ${Array.from({ length: 32 }, () => 'AA').join(':')}`;
  /** A session description the attacker controls: its own DTLS certificate's fingerprint. */
  const attackerSdp = [
    'v=0',
    'o=- 4611731400430051336 2 IN IP4 127.0.0.1',
    's=-',
    't=0 0',
    'm=audio 9 UDP/TLS/RTP/SAVPF 111',
    'c=IN IP4 0.0.0.0',
    'a=ice-ufrag:evil',
    'a=ice-pwd:evilevilevilevilevilevil',
    `a=fingerprint:${attackerFingerprint}`,
    'a=setup:actpass',
    'a=mid:0',
    'a=sendrecv',
    'a=rtpmap:111 opus/48000/2',
    '',
  ].join('\r\n');

  beforeAll(async () => {
    attackerSigningKey = await nonExtractableSigningKey((await generateSigningKeyPair()).privateKey);
  });

  /** The current encryption key of `userId` as the server publishes it (the attacker has these). */
  const publishedKey = async (page: Page, userId: string): Promise<CryptoKey> => {
    const spki = await page.evaluate(async (id) => {
      const token = localStorage.getItem('accesstoken') ?? '';
      const response = await fetch(`/api/v1/users/${id}/keyLog`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      return ((await response.json()) as { data: { current: { encryptionKey: string } } }).data.current
        .encryptionKey;
    }, userId);
    return importPublicKeySpkiBase64(spki);
  };

  /** An offer the attacker seals for both parties and signs with its own key. */
  const forgedOffer = async (
    routing: { from: string; to: string; chatId: string; callId: string },
    keys: Record<string, CryptoKey>,
  ) => {
    const body: CallSignalBody = {
      ...routing,
      kind: 'offer',
      media: 'audio',
      sentAt: new Date().toISOString(),
      sdp: attackerSdp,
      fingerprint: attackerFingerprint,
    };
    return sealCallSignal(body, keys, attackerSigningKey);
  };

  const parties = async () => {
    const { alice, bob } = await callers(veil());
    const [aliceId, bobId] = await Promise.all([currentUserId(alice.page), currentUserId(bob.page)]);
    const chatId = new URL(bob.page.url()).searchParams.get('chat')!;
    const keys = {
      [aliceId]: await publishedKey(alice.page, aliceId),
      [bobId]: await publishedKey(alice.page, bobId),
    };
    return { alice, bob, aliceId, bobId, chatId, keys };
  };

  const refusal = (page: Page) => page.getByTestId('call-refused');

  it("refuses an offer whose fingerprint the server swapped (resealed under the caller's signature) with the warning", async () => {
    const proxy = veil().proxy;
    const { alice, bob, bobId, keys } = await parties();
    const seen = new Set<string>();
    proxy.rewriteEvents('toClient', (event, { viewer }) => {
      if (event.name !== 'call signal' || viewer !== bobId) return undefined;
      const delivery = event.args[0] as CallSignalDelivery;
      if (seen.has(delivery.callId)) return undefined;
      seen.add(delivery.callId);
      // The call's first signal is its offer: replace its content, keep the caller's signature.
      void forgedOffer(delivery, keys).then((forged) =>
        proxy.injectEvent(
          'toClient',
          {
            name: 'call signal',
            args: [{ ...delivery, signal: { ...forged, signature: delivery.signal.signature } }],
          },
          bobId,
        ),
      );
      return null;
    });
    await alice.page.getByRole('button', { name: `Voice call with ${bob.name}` }).click();
    await expect
      .poll(() => refusal(bob.page).textContent(), poll)
      .toContain(`A call from ${alice.name} was refused: it was not signed with their keys`);
    expect(await incomingCall(bob.page).count()).toBe(0);
    // No browser of Bob's rang: the caller hears nothing back and gives up.
    await expect
      .poll(() => callStatus(alice.page).textContent(), { timeout: 40_000, interval: 500 })
      .toBe('Not reachable: none of their browsers is online');
  });

  it('refuses an offer the server injects "from" the other member, signed with a key not theirs', async () => {
    const proxy = veil().proxy;
    const { alice, bob, aliceId, bobId, chatId, keys } = await parties();
    const callId = 'f'.repeat(32);
    const routing = { from: aliceId, to: bobId, chatId, callId };
    proxy.injectEvent(
      'toClient',
      { name: 'call signal', args: [{ ...routing, signal: await forgedOffer(routing, keys) }] },
      bobId,
    );
    await expect
      .poll(() => refusal(bob.page).textContent(), poll)
      .toContain(`A call from ${alice.name} was refused`);
    expect(await incomingCall(bob.page).count()).toBe(0);
    await bob.page.getByTestId('call-refused').getByRole('button', { name: 'Dismiss' }).click();
    await expect.poll(() => refusal(bob.page).count(), poll).toBe(0);
  });

  it('carries no session description, candidate or address through the server in the clear', async () => {
    const proxy = veil().proxy;
    const { alice, bob } = await callers(veil());
    await alice.page.getByRole('button', { name: `Voice call with ${bob.name}` }).click();
    await incomingCall(bob.page).getByRole('button', { name: 'Accept' }).click();
    for (const page of [alice.page, bob.page])
      await expect.poll(() => page.getByTestId('call-panel').getAttribute('data-phase'), poll).toBe('active');
    const signals = proxy.events.filter((event) => event.name === 'call signal');
    expect(signals.length).toBeGreaterThan(4);
    const carried = JSON.stringify(signals);
    // Each holds a character base64 and ids never do, so no ciphertext can contain it by chance.
    for (const clear of ['a=fingerprint:', 'candidate:', 'IN IP4', '127.0.0.1', 'UDP/TLS'])
      expect(carried).not.toContain(clear);
  });

  it('refuses a group call the server passes on from someone no longer in the group, with the warning', async () => {
    const proxy = veil().proxy;
    const people = [];
    for (const prefix of ['hal', 'hbo', 'hda'])
      people.push(await signedUpPerson(veil(), prefix, keepPeerConnections));
    const [alice, bob, dave] = people as [(typeof people)[0], (typeof people)[0], (typeof people)[0]];
    const [bobId, daveId] = await Promise.all([currentUserId(bob.page), currentUserId(dave.page)]);
    const group = uniqueName('Crew');
    await createGroupOverApi(alice.page, group, [bobId, daveId]);
    // Alice, its admin, opens the group first: her browser signs its state.
    await openChat(alice.page, group);
    await alice.page.getByRole('button', { name: `Voice call with ${group}` }).waitFor();
    await openChat(bob.page, group);
    await openChat(dave.page, group);

    // Dave calls the group; the server keeps his invitation to Bob instead of passing it on.
    let kept: SocketEvent | undefined;
    proxy.rewriteEvents('toClient', (event, { viewer }) => {
      if (event.name !== 'call signal' || viewer !== bobId) return undefined;
      if ((event.args[0] as CallSignalDelivery).from !== daveId) return undefined;
      kept ??= event;
      return null;
    });
    await dave.page.getByRole('button', { name: `Voice call with ${group}` }).click();
    await incomingCall(alice.page).getByRole('button', { name: 'Decline' }).click();
    await expect.poll(() => kept !== undefined, poll).toBe(true);
    await dave.page.getByRole('button', { name: 'Hang up' }).click();

    // Alice removes Dave (a signed change); then the server hands Bob the invitation it kept.
    const panel = await openGroupInfo(alice.page);
    await panel.getByRole('button', { name: `Remove ${dave.name}` }).click();
    await panel.getByRole('button', { name: `Remove ${dave.name}` }).waitFor({ state: 'detached' });
    await panel.getByRole('button', { name: 'Close' }).click();
    await bob.page
      .getByTestId('system-line')
      .filter({ hasText: `removed ${dave.name}` })
      .waitFor();
    proxy.injectEvent('toClient', kept!, bobId);

    // Dave is no member any more, so Bob's browser does not know his name either.
    await expect
      .poll(() => refusal(bob.page).textContent(), poll)
      .toContain('A call signal from Someone was refused: the group’s signed membership does not hold them');
    expect(await incomingCall(bob.page).count()).toBe(0);
    expect(await bob.page.getByRole('button', { name: `Join the call in ${group}` }).count()).toBe(0);
  });
});
