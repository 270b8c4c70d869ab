import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  createGroupOverApi,
  currentUserId,
  messageWithText,
  openChat,
  signedUpPerson,
  uniqueName,
} from './flows.ts';
import { phone390, useVeilWeb } from './harness.ts';
import {
  auditCallScreen,
  bytesReceivedPerConnection,
  callPanel,
  callStatus,
  expectCallButtonInHeaderRow,
  incomingCall,
  keepPeerConnections,
} from './calls-support.ts';

/**
 * Group calls between real browsers (each person a context of their own, Chromium's fake
 * microphone and camera): a mesh of connections, one per pair, with media flowing on each.
 */
describe('group calls (browser)', { timeout: 300_000 }, () => {
  const veil = useVeilWeb();
  const poll = { timeout: 30_000, interval: 250 };

  /** Three people in a group, each with it open. */
  const threeInAGroup = async () => {
    const people = [];
    for (const prefix of ['gal', 'gbo', 'gca'])
      people.push(await signedUpPerson(veil(), prefix, keepPeerConnections));
    const [alice, bob, carol] = people as [(typeof people)[0], (typeof people)[0], (typeof people)[0]];
    const ids = await Promise.all([bob.page, carol.page].map(currentUserId));
    const group = uniqueName('Team');
    await createGroupOverApi(alice.page, group, ids);
    for (const person of [alice, bob, carol]) await openChat(person.page, group);
    return { alice, bob, carol, group };
  };

  /** Each of the page's `count` connections receives media, and keeps receiving it. */
  const receivingOnEach = async (page: Page, count: number) => {
    await expect.poll(async () => (await bytesReceivedPerConnection(page)).length, poll).toBe(count);
    const before = await bytesReceivedPerConnection(page);
    await expect
      .poll(async () => {
        const now = await bytesReceivedPerConnection(page);
        return now.length === count && now.every((bytes, index) => bytes > before[index]! + 10_000);
      }, poll)
      .toBe(true);
  };

  it('connects three people with media flowing on all six directions; one leaves and two stay; the last one ends it', async () => {
    const { alice, bob, carol, group } = await threeInAGroup();
    await alice.page.getByRole('button', { name: `Video call with ${group}` }).click();
    await expect.poll(() => callStatus(alice.page).textContent(), poll).toBe('Ringing the group…');
    for (const page of [bob.page, carol.page])
      await expect
        .poll(() => incomingCall(page).textContent(), poll)
        .toContain(`${alice.name} is video calling ${group}`);

    await incomingCall(bob.page).getByRole('button', { name: 'Accept with video' }).click();
    for (const page of [alice.page, bob.page])
      await expect.poll(() => callPanel(page).getAttribute('data-phase'), poll).toBe('active');
    await incomingCall(carol.page).getByRole('button', { name: 'Accept with video' }).click();

    // A mesh: each browser holds a connection with each other one, and media flows on every one.
    for (const page of [alice.page, bob.page, carol.page]) await receivingOnEach(page, 2);
    const tiles = callPanel(alice.page).getByRole('list', { name: 'People in the call' });
    for (const name of ['You', bob.name, carol.name]) await tiles.getByText(name, { exact: true }).waitFor();
    await expect.poll(() => callStatus(carol.page).textContent(), poll).toMatch(/^\d+:\d\d$/);

    // Bob mutes: the others see the mark on his tile.
    await bob.page.getByRole('button', { name: 'Mute microphone' }).click();
    await expect
      .poll(() => tiles.getByTestId('group-call-tile').filter({ hasText: bob.name }).textContent(), poll)
      .toContain('muted');

    await carol.page.getByRole('button', { name: 'Hang up' }).click();
    await expect.poll(() => callStatus(carol.page).textContent(), poll).toBe('Call ended');
    for (const page of [alice.page, bob.page]) await receivingOnEach(page, 1);
    expect(await callPanel(alice.page).getAttribute('data-phase')).toBe('active');

    await alice.page.getByRole('button', { name: 'Hang up' }).click();
    await expect
      .poll(() => callStatus(bob.page).textContent(), poll)
      .toBe('The call is over: no one else is in it');
    // The caller's browser leaves the call in the group's timeline, sealed and signed.
    for (const page of [alice.page, bob.page, carol.page])
      await messageWithText(page, 'Group video call, 1 min').waitFor();
  });

  it('offers "Join" to a member who declined, and the call is missed for one who never joined', async () => {
    const { alice, bob, carol, group } = await threeInAGroup();
    await alice.page.getByRole('button', { name: `Voice call with ${group}` }).click();
    await incomingCall(bob.page).getByRole('button', { name: 'Decline' }).click();
    await expect.poll(() => incomingCall(bob.page).count(), poll).toBe(0);
    await incomingCall(carol.page).waitFor();

    await bob.page.getByRole('button', { name: `Join the call in ${group}` }).click();
    for (const page of [alice.page, bob.page]) {
      await expect.poll(() => callPanel(page).getAttribute('data-phase'), poll).toBe('active');
      await receivingOnEach(page, 1);
    }
    // While Alice and Bob talk, Carol's group shows the call she can join.
    await expect
      .poll(() => carol.page.getByRole('button', { name: `Join the call in ${group}` }).count(), poll)
      .toBe(1);

    await bob.page.getByRole('button', { name: 'Hang up' }).click();
    await expect
      .poll(() => callStatus(alice.page).textContent(), poll)
      .toBe('The call is over: no one else is in it');
    // No one is left: Carol's browser stops ringing, and the group offers a new call again.
    await expect.poll(() => incomingCall(carol.page).count(), poll).toBe(0);
    await carol.page.getByRole('button', { name: `Voice call with ${group}` }).waitFor();
    await messageWithText(alice.page, 'Group voice call, 1 min').waitFor();
    await messageWithText(bob.page, 'Group voice call, 1 min').waitFor();
    await messageWithText(carol.page, 'Missed group voice call').waitFor();
  });

  it('shows ringing and the grid without axe violations, in both themes, and stacks the tiles on a phone', async () => {
    const { alice, bob, carol, group } = await threeInAGroup();
    // The call buttons fit the group header's one row on a phone.
    await expectCallButtonInHeaderRow(alice.page, `Video call with ${group}`);

    await alice.page.getByRole('button', { name: `Video call with ${group}` }).click();
    await incomingCall(carol.page).waitFor();
    const found = await auditCallScreen(carol.page, 'ringing');
    await incomingCall(bob.page).getByRole('button', { name: 'Accept with video' }).click();
    await expect.poll(() => callPanel(alice.page).getAttribute('data-phase'), poll).toBe('active');
    found.push(...(await auditCallScreen(alice.page, 'in a group call')));
    expect(found).toEqual([]);

    await alice.page.setViewportSize(phone390);
    const tiles = callPanel(alice.page).getByRole('listitem');
    await expect.poll(() => tiles.count(), poll).toBe(2);
    const [own, other] = [await tiles.nth(0).boundingBox(), await tiles.nth(1).boundingBox()];
    expect(other!.x).toBe(own!.x);
    expect(other!.y).toBeGreaterThanOrEqual(own!.y + own!.height);
    expect(own!.x + own!.width).toBeLessThanOrEqual(390);
    await alice.page.getByRole('button', { name: 'Hang up' }).click();
  });
});
