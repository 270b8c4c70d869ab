import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { desktop, phone390, useVeilWeb } from './harness.ts';
import { createGroupOverApi, currentUserId, openChat, sayHi, signedUpPerson, uniqueName } from './flows.ts';
import {
  auditCallScreen,
  mediaKeepsFlowing,
  callPanel,
  callers,
  connectionsMade,
  incomingCall,
  keepPeerConnections,
  sentTrack,
} from './calls-support.ts';

/**
 * Changing what a call sends while it goes on: another microphone, and the screen in the camera's
 * place, each put on the connection's existing sender (no renegotiation). Chromium's fake devices
 * list three microphones and one camera; its fake screen capture stands in for the screen.
 */
describe('call devices and screen sharing (browser)', { timeout: 240_000 }, () => {
  const veil = useVeilWeb();
  const poll = { timeout: 30_000, interval: 250 };

  const videoCall = async (prepare?: (page: Page) => Promise<void>) => {
    const alice = await signedUpPerson(veil(), 'cdal', async (page) => {
      await keepPeerConnections(page);
      await prepare?.(page);
    });
    const bob = await signedUpPerson(veil(), 'cdbo', keepPeerConnections);
    await sayHi(alice.page, bob.name);
    await openChat(bob.page, alice.name);
    await alice.page.getByRole('button', { name: `Video call with ${bob.name}` }).click();
    await incomingCall(bob.page).getByRole('button', { name: 'Accept with video' }).click();
    for (const page of [alice.page, bob.page])
      await expect.poll(() => callPanel(page).getAttribute('data-phase'), poll).toBe('active');
    return { alice, bob };
  };

  it('switches the microphone from the keyboard without renegotiating, and the other side keeps hearing', async () => {
    const { alice, bob } = await videoCall();
    const before = await sentTrack(alice.page, 'audio');
    const made = await connectionsMade(alice.page);

    const devices = callPanel(alice.page).getByText('Devices', { exact: true });
    await devices.focus();
    await alice.page.keyboard.press('Enter');
    const microphone = callPanel(alice.page).getByRole('combobox', { name: 'Microphone' });
    await microphone.focus();
    const choices = await microphone.locator('option').allTextContents();
    expect(choices.length).toBeGreaterThan(1);
    const other = choices.find((label) => label !== before?.label && !/default/i.test(label))!;
    await microphone.selectOption({ label: other });

    await expect.poll(async () => (await sentTrack(alice.page, 'audio'))?.label, poll).toBe(other);
    expect((await sentTrack(alice.page, 'audio'))?.id).not.toBe(before?.id);
    await mediaKeepsFlowing(bob.page, { kind: 'audio' });
    // The same connection carries it: no new offer, no new peer connection.
    expect(await connectionsMade(alice.page)).toBe(made);
    await expect.poll(() => callPanel(alice.page).getAttribute('data-phase'), poll).toBe('active');

    // The camera picker lists the camera in use (Chromium fakes one).
    const camera = callPanel(alice.page).getByRole('combobox', { name: 'Camera' });
    expect(await camera.locator('option').count()).toBeGreaterThan(0);
    // The open pickers pass axe in both themes, at desktop and phone widths, and fit a phone.
    expect(await auditCallScreen(alice.page, 'devices open')).toEqual([]);
    await alice.page.setViewportSize(phone390);
    const box = await microphone.boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(phone390.width);
    await alice.page.setViewportSize(desktop);
    await alice.page.getByRole('button', { name: 'Hang up' }).click();
  });

  it('shares the screen in the camera’s place and comes back to the camera, from the button and from the browser’s own stop', async () => {
    const { alice, bob } = await videoCall();
    const camera = await sentTrack(alice.page, 'video');

    await alice.page.getByRole('button', { name: 'Share screen' }).click();
    await alice.page.getByRole('button', { name: 'Stop sharing' }).waitFor();
    await expect.poll(async () => (await sentTrack(alice.page, 'video'))?.label, poll).toMatch(/^screen/);
    await mediaKeepsFlowing(bob.page, { kind: 'video' });
    // The camera's button waits while the screen is shared.
    expect(await alice.page.getByRole('button', { name: 'Turn camera off' }).count()).toBe(0);

    await alice.page.getByRole('button', { name: 'Stop sharing' }).click();
    await alice.page.getByRole('button', { name: 'Share screen' }).waitFor();
    await expect.poll(async () => (await sentTrack(alice.page, 'video'))?.id, poll).toBe(camera?.id);
    await mediaKeepsFlowing(bob.page, { kind: 'video' });

    // The browser's own "Stop sharing" ends the screen's track: the camera comes back.
    await alice.page.getByRole('button', { name: 'Share screen' }).click();
    await expect.poll(async () => (await sentTrack(alice.page, 'video'))?.label, poll).toMatch(/^screen/);
    await alice.page.evaluate(() => {
      const made = (window as unknown as { veilPeerConnections: RTCPeerConnection[] }).veilPeerConnections;
      const screen = made
        .at(-1)!
        .getSenders()
        .find((sender) => sender.track?.kind === 'video')!.track!;
      screen.stop();
      // What the browser does when its own bar's "Stop sharing" is pressed (stop() alone fires nothing).
      screen.dispatchEvent(new Event('ended'));
    });
    await alice.page.getByRole('button', { name: 'Share screen' }).waitFor();
    await expect.poll(async () => (await sentTrack(alice.page, 'video'))?.id, poll).toBe(camera?.id);
    await mediaKeepsFlowing(bob.page, { kind: 'video' });
    await alice.page.getByRole('button', { name: 'Hang up' }).click();
  });

  it('says so when the screen cannot be shared, and offers no sharing where the browser has none', async () => {
    const { alice, bob } = await videoCall(async (page) => {
      await page.addInitScript(() => {
        // The browser refuses, as when the person cancels its picker.
        MediaDevices.prototype.getDisplayMedia = () =>
          Promise.reject(new DOMException('Permission denied', 'NotAllowedError'));
      });
    });
    await alice.page.getByRole('button', { name: 'Share screen' }).click();
    await expect
      .poll(() => callPanel(alice.page).getByRole('alert').textContent(), poll)
      .toContain('The screen could not be shared');
    await expect.poll(() => callPanel(alice.page).getAttribute('data-phase'), poll).toBe('active');
    await alice.page.getByRole('button', { name: 'Hang up' }).click();
    await alice.page.getByRole('button', { name: 'Close' }).click();
    await bob.page.getByRole('button', { name: 'Close' }).click();

    // A phone's browser has no getDisplayMedia: no "Share screen".
    const phone = await callers(veil());
    await phone.alice.page.evaluate(() => {
      delete (MediaDevices.prototype as Partial<MediaDevices>).getDisplayMedia;
    });
    await phone.alice.page.getByRole('button', { name: `Video call with ${phone.bob.name}` }).click();
    await incomingCall(phone.bob.page).getByRole('button', { name: 'Accept with video' }).click();
    await expect.poll(() => callPanel(phone.alice.page).getAttribute('data-phase'), poll).toBe('active');
    await phone.alice.page.getByRole('button', { name: 'Turn camera off' }).waitFor();
    expect(await phone.alice.page.getByRole('button', { name: 'Share screen' }).count()).toBe(0);
    await phone.alice.page.getByRole('button', { name: 'Hang up' }).click();
  });

  it('shares the screen in a group call on the pair’s existing sender', async () => {
    const alice = await signedUpPerson(veil(), 'sgal', keepPeerConnections);
    const bob = await signedUpPerson(veil(), 'sgbo', keepPeerConnections);
    const group = uniqueName('Team');
    await createGroupOverApi(alice.page, group, [await currentUserId(bob.page)]);
    for (const person of [alice, bob]) await openChat(person.page, group);
    await alice.page.getByRole('button', { name: `Video call with ${group}` }).click();
    await incomingCall(bob.page).getByRole('button', { name: 'Accept with video' }).click();
    for (const page of [alice.page, bob.page])
      await expect.poll(() => callPanel(page).getAttribute('data-phase'), poll).toBe('active');
    const made = await connectionsMade(alice.page);

    await alice.page.getByRole('button', { name: 'Share screen' }).click();
    await expect.poll(async () => (await sentTrack(alice.page, 'video'))?.label, poll).toMatch(/^screen/);
    await mediaKeepsFlowing(bob.page, { kind: 'video' });
    await alice.page.getByRole('button', { name: 'Stop sharing' }).click();
    await expect.poll(async () => (await sentTrack(alice.page, 'video'))?.label, poll).not.toMatch(/^screen/);
    expect(await connectionsMade(alice.page)).toBe(made);
    await alice.page.getByRole('button', { name: 'Hang up' }).click();
  });
});
