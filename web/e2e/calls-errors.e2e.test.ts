import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openChat, sayHi, signedUpPerson } from './flows.ts';
import { useVeilWeb } from './harness.ts';
import { callPanel, callStatus, callers, incomingCall, keepPeerConnections } from './calls-support.ts';

/** What people are told when a call cannot be made or answered. */
describe('calls that cannot be made (browser)', { timeout: 240_000 }, () => {
  const veil = useVeilWeb();
  const poll = { timeout: 30_000, interval: 250 };

  it('tells a third caller the callee is busy in another call', async () => {
    const { alice, bob } = await callers(veil());
    const carol = await signedUpPerson(veil(), 'cca', keepPeerConnections);
    await sayHi(carol.page, bob.name);
    await alice.page.getByRole('button', { name: `Voice call with ${bob.name}` }).click();
    await incomingCall(bob.page).getByRole('button', { name: 'Accept' }).click();
    await expect.poll(() => callPanel(bob.page).getAttribute('data-phase'), poll).toBe('active');

    await carol.page.getByRole('button', { name: `Voice call with ${bob.name}` }).click();
    await expect
      .poll(() => callStatus(carol.page).textContent(), poll)
      .toBe('Busy: they are in another call');
    // Bob's call goes on undisturbed.
    expect(await callPanel(bob.page).getAttribute('data-phase')).toBe('active');
    await openChat(bob.page, carol.name);
    expect(await callPanel(bob.page).getAttribute('data-phase')).toBe('active');
  });

  /** A browser whose `prepare` runs before the app loads, and a chat with someone. */
  const callerWhose = async (prepare: (page: Page) => Promise<void>) => {
    const bob = await signedUpPerson(veil(), 'cbe');
    const alice = await signedUpPerson(veil(), 'cae', prepare);
    await sayHi(alice.page, bob.name);
    return { alice, bob };
  };

  it('says so in a browser without WebRTC', async () => {
    const { alice, bob } = await callerWhose(async (page) => {
      await page.addInitScript(() => {
        Reflect.deleteProperty(window, 'RTCPeerConnection');
      });
    });
    await alice.page.getByRole('button', { name: `Video call with ${bob.name}` }).click();
    await expect
      .poll(() => callStatus(alice.page).textContent(), poll)
      .toBe('This browser cannot make calls (it has no WebRTC)');
    expect(await incomingCall(bob.page).count()).toBe(0);
  });

  it('says so when the microphone is refused or missing', async () => {
    // As the browser answers when the person clicks "Block", or when no microphone is plugged in.
    const refusing = (name: string) => async (page: Page) => {
      await page.addInitScript((error) => {
        navigator.mediaDevices.getUserMedia = () => Promise.reject(new DOMException('refused', error));
      }, name);
    };
    const denied = await callerWhose(refusing('NotAllowedError'));
    await denied.alice.page.getByRole('button', { name: `Voice call with ${denied.bob.name}` }).click();
    await expect
      .poll(() => callStatus(denied.alice.page).textContent(), poll)
      .toBe('Veil may not use the microphone or camera: allow it in the site settings of your browser');

    const missing = await callerWhose(refusing('NotFoundError'));
    await missing.alice.page.getByRole('button', { name: `Voice call with ${missing.bob.name}` }).click();
    await expect
      .poll(() => callStatus(missing.alice.page).textContent(), poll)
      .toBe('No microphone or camera was found');
    expect(await incomingCall(missing.bob.page).count()).toBe(0);
  });
});
