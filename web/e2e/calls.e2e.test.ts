import { describe, expect, it } from 'vitest';
import { useVeilWeb } from './harness.ts';
import { messageWithText, sameUserElsewhere } from './flows.ts';
import {
  auditCallScreen,
  mediaKeepsFlowing,
  callPanel,
  callStatus,
  callers,
  expectCallButtonInHeaderRow,
  incomingCall,
  keepPeerConnections,
  senderTracks,
} from './calls-support.ts';

/**
 * One-to-one calls between real browsers (separate contexts as separate people) with Chromium's
 * fake microphone and camera: ringing, answering, declining, hanging up, and media that flows.
 */
describe('calls (browser)', { timeout: 240_000 }, () => {
  const veil = useVeilWeb();
  const poll = { timeout: 30_000, interval: 250 };

  it('connects a video call with media flowing both ways; the callee hangs up and the caller is told', async () => {
    const { alice, bob } = await callers(veil());
    await alice.page.getByRole('button', { name: `Video call with ${bob.name}` }).click();
    await expect.poll(() => callStatus(alice.page).textContent(), poll).toMatch(/Calling…|Ringing…/);
    const ringing = incomingCall(bob.page);
    await expect.poll(() => ringing.textContent(), poll).toContain(`${alice.name} is video calling you`);
    await expect.poll(() => callStatus(alice.page).textContent(), poll).toBe('Ringing…');
    await ringing.getByRole('button', { name: 'Accept with video' }).click();

    for (const page of [alice.page, bob.page])
      await expect.poll(() => callPanel(page).getAttribute('data-phase'), poll).toBe('active');
    // Media flows both ways: what each side has received keeps growing.
    for (const page of [alice.page, bob.page]) await mediaKeepsFlowing(page, { atLeast: 10_000 });
    await expect.poll(() => callStatus(bob.page).textContent(), poll).toMatch(/^\d+:\d\d$/);
    await callPanel(alice.page).getByRole('heading', { name: bob.name }).waitFor();
    await callPanel(bob.page).getByRole('heading', { name: alice.name }).waitFor();

    // Mute and camera off change this side's tracks.
    await alice.page.getByRole('button', { name: 'Mute microphone' }).click();
    await expect
      .poll(
        () => alice.page.getByRole('button', { name: 'Unmute microphone' }).getAttribute('aria-pressed'),
        poll,
      )
      .toBe('true');
    await expect.poll(() => senderTracks(alice.page), poll).toBe('audio:false,video:true');
    await alice.page.getByRole('button', { name: 'Turn camera off' }).click();
    await alice.page.getByRole('button', { name: 'Turn camera on' }).waitFor();
    await expect.poll(() => senderTracks(alice.page), poll).toBe('audio:false,video:false');

    await bob.page.getByRole('button', { name: 'Hang up' }).click();
    await expect.poll(() => callStatus(bob.page).textContent(), poll).toBe('Call ended');
    await expect.poll(() => callStatus(alice.page).textContent(), poll).toBe('The other side hung up');
    // The caller's browser leaves the call in the timeline, sealed and signed: both sides see it.
    for (const page of [alice.page, bob.page]) await messageWithText(page, 'Video call, 1 min').waitFor();
  });

  it('lets the caller hang up a voice call in progress, and a call cancelled while ringing is missed', async () => {
    const { alice, bob } = await callers(veil());
    await alice.page.getByRole('button', { name: `Voice call with ${bob.name}` }).click();
    await incomingCall(bob.page).getByRole('button', { name: 'Accept' }).click();
    for (const page of [alice.page, bob.page])
      await expect.poll(() => callPanel(page).getAttribute('data-phase'), poll).toBe('active');
    await mediaKeepsFlowing(bob.page);
    await alice.page.getByRole('button', { name: 'Hang up' }).click();
    await expect.poll(() => callStatus(bob.page).textContent(), poll).toBe('The other side hung up');
    await alice.page.getByRole('button', { name: 'Close' }).click();
    await bob.page.getByRole('button', { name: 'Close' }).click();

    await alice.page.getByRole('button', { name: `Voice call with ${bob.name}` }).click();
    await expect.poll(() => incomingCall(bob.page).count(), poll).toBe(1);
    await alice.page.getByRole('button', { name: 'Hang up' }).click();
    await expect.poll(() => callStatus(bob.page).textContent(), poll).toBe('Missed call');
    await messageWithText(bob.page, 'Missed voice call').waitFor();
    await messageWithText(alice.page, 'Missed voice call').waitFor();
  });

  it('rings on any page, tells the caller the call was declined, and counts it unread for the callee', async () => {
    const { alice, bob } = await callers(veil());
    // Moving within the app keeps its socket: the call rings wherever Bob is in it.
    await bob.page.getByRole('link', { name: 'Users' }).click();
    await bob.page.waitForURL(/\/users/);
    await alice.page.getByRole('button', { name: `Voice call with ${bob.name}` }).click();
    await incomingCall(bob.page).getByRole('button', { name: 'Decline' }).click();
    await expect.poll(() => callStatus(alice.page).textContent(), poll).toBe('Declined');
    await expect.poll(() => incomingCall(bob.page).count(), poll).toBe(0);
    await messageWithText(alice.page, 'Missed voice call').waitFor();
    await bob.page.getByRole('link', { name: /^All-chats/ }).click();
    const badge = bob.page
      .getByTestId('chat-item')
      .filter({ hasText: alice.name })
      .getByTestId('unread-badge');
    await expect.poll(() => badge.textContent(), poll).toBe('1');
    await expect
      .poll(() => bob.page.getByTestId('chat-item').filter({ hasText: alice.name }).textContent(), poll)
      .toContain('Missed voice call');
  });

  it('rings on every browser of the callee; answered on one, the other says so', async () => {
    const { alice, bob } = await callers(veil());
    const bobElsewhere = await sameUserElsewhere(veil(), bob);
    await keepPeerConnections(bobElsewhere);
    await alice.page.getByRole('button', { name: `Video call with ${bob.name}` }).click();
    for (const page of [bob.page, bobElsewhere])
      await expect.poll(() => incomingCall(page).count(), poll).toBe(1);
    await incomingCall(bobElsewhere).getByRole('button', { name: 'Accept without video' }).click();
    await expect.poll(() => callStatus(bob.page).textContent(), poll).toBe('Answered on another browser');
    await expect.poll(() => callPanel(bobElsewhere).getAttribute('data-phase'), poll).toBe('active');
    await expect.poll(() => callPanel(alice.page).getAttribute('data-phase'), poll).toBe('active');
    await alice.page.getByRole('button', { name: 'Hang up' }).click();
    await expect.poll(() => callStatus(bobElsewhere).textContent(), poll).toBe('The other side hung up');
  });

  it('shows ringing and a call in progress without axe violations, in both themes, at desktop and phone widths', async () => {
    const { alice, bob } = await callers(veil());
    // The call buttons fit the chat header's one row on a phone.
    await expectCallButtonInHeaderRow(alice.page, `Video call with ${bob.name}`);

    await alice.page.getByRole('button', { name: `Video call with ${bob.name}` }).click();
    await incomingCall(bob.page).waitFor();
    // Audited once Bob has read Alice's greeting: the unread count is the nav's business, not the call's.
    await bob.page.getByRole('link', { name: 'All-chats', exact: true }).waitFor();
    const found = await auditCallScreen(bob.page, 'ringing');
    await incomingCall(bob.page).getByRole('button', { name: 'Accept with video' }).click();
    await expect.poll(() => callPanel(alice.page).getAttribute('data-phase'), poll).toBe('active');
    found.push(...(await auditCallScreen(alice.page, 'in a call')));
    expect(found).toEqual([]);
    await alice.page.getByRole('button', { name: 'Hang up' }).click();
  });
});
