import { describe, expect, it } from 'vitest';
import { useVeilWeb } from './harness.ts';
import { createGroupOverApi, currentUserId, openChat, signedUpPerson, uniqueName } from './flows.ts';
import {
  mediaKeepsFlowing,
  callPanel,
  callStatus,
  callers,
  connectionsMade,
  iceUfrag,
  incomingCall,
  keepPeerConnections,
} from './calls-support.ts';

/**
 * ICE restarts of a call in progress: on a change of network the caller offers one, sealed and
 * signed like the first offer, and the callee answers it only if it names the certificate signed
 * when the call began. (A relay that goes away and comes back: calls-relay.e2e.test.ts.)
 */
describe('call ICE restarts (browser)', { timeout: 240_000 }, () => {
  const veil = useVeilWeb();
  const poll = { timeout: 30_000, interval: 250 };

  const inACall = async () => {
    const people = await callers(veil());
    await people.alice.page.getByRole('button', { name: `Voice call with ${people.bob.name}` }).click();
    await incomingCall(people.bob.page).getByRole('button', { name: 'Accept' }).click();
    for (const page of [people.alice.page, people.bob.page])
      await expect.poll(() => callPanel(page).getAttribute('data-phase'), poll).toBe('active');
    return people;
  };

  it('restarts ICE when the caller’s network changes, and media keeps flowing both ways', async () => {
    const { alice, bob } = await inACall();
    const ufrags = [await iceUfrag(alice.page), await iceUfrag(bob.page)];
    // What the browser fires when it comes back online on a network.
    await alice.page.evaluate(() => window.dispatchEvent(new Event('online')));
    await expect.poll(() => iceUfrag(alice.page), poll).not.toBe(ufrags[0]);
    await expect.poll(() => iceUfrag(bob.page), poll).not.toBe(ufrags[1]);
    for (const page of [alice.page, bob.page]) {
      await expect.poll(() => callPanel(page).getAttribute('data-phase'), poll).toBe('active');
      await mediaKeepsFlowing(page);
    }
    await alice.page.getByRole('button', { name: 'Hang up' }).click();
  });

  it('refuses a restart whose offer names another certificate than the one signed at the start', async () => {
    const { alice, bob } = await inACall();
    // The caller's browser now describes (and signs) a certificate its connection does not hold,
    // as one that handed the restart to someone in the middle would.
    await alice.page.evaluate(() => {
      // The browser's own getter, wherever on the prototype chain it is (the test wraps the class).
      let owner: object = RTCPeerConnection.prototype;
      while (!Object.getOwnPropertyDescriptor(owner, 'localDescription'))
        owner = Object.getPrototypeOf(owner) as object;
      const described = Object.getOwnPropertyDescriptor(owner, 'localDescription')!;
      Object.defineProperty(RTCPeerConnection.prototype, 'localDescription', {
        configurable: true,
        get(this: RTCPeerConnection) {
          const real = described.get!.call(this) as RTCSessionDescription | null;
          if (!real) return real;
          const other = Array.from({ length: 32 }, () => 'AB').join(':');
          return {
            type: real.type,
            sdp: real.sdp.replace(/a=fingerprint:sha-256 \S+/g, `a=fingerprint:sha-256 ${other}`),
          };
        },
      });
      window.dispatchEvent(new Event('online'));
    });
    await expect.poll(() => callStatus(bob.page).textContent(), poll).toMatch(/^Call refused/);
    await expect.poll(() => callStatus(alice.page).textContent(), poll).toBe('The other side hung up');
  });

  it('restarts ICE in a group call from the side that offered the pair, and media keeps flowing', async () => {
    const alice = await signedUpPerson(veil(), 'ral', keepPeerConnections);
    const bob = await signedUpPerson(veil(), 'rbo', keepPeerConnections);
    const group = uniqueName('Team');
    await createGroupOverApi(alice.page, group, [await currentUserId(bob.page)]);
    for (const person of [alice, bob]) await openChat(person.page, group);
    await alice.page.getByRole('button', { name: `Voice call with ${group}` }).click();
    await incomingCall(bob.page).getByRole('button', { name: 'Accept' }).click();
    for (const page of [alice.page, bob.page])
      await expect.poll(() => callPanel(page).getAttribute('data-phase'), poll).toBe('active');
    const ufrags = [await iceUfrag(alice.page), await iceUfrag(bob.page)];
    const made = [await connectionsMade(alice.page), await connectionsMade(bob.page)];

    // Bob joined, so Bob offered the pair: his network changing restarts it.
    await bob.page.evaluate(() => window.dispatchEvent(new Event('online')));
    await expect.poll(() => iceUfrag(bob.page), poll).not.toBe(ufrags[1]);
    await expect.poll(() => iceUfrag(alice.page), poll).not.toBe(ufrags[0]);
    for (const page of [alice.page, bob.page]) {
      await mediaKeepsFlowing(page);
      await expect.poll(() => callPanel(page).getAttribute('data-phase'), poll).toBe('active');
    }
    // The same connections, restarted: neither side made a new one.
    expect([await connectionsMade(alice.page), await connectionsMade(bob.page)]).toEqual(made);
    await bob.page.getByRole('button', { name: 'Hang up' }).click();
  });
});
