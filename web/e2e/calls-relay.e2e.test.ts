import { createHmac } from 'node:crypto';
import { startTurnServer, type TestTurnServer } from '@veil/test-env';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useVeilWeb } from './harness.ts';
import {
  mediaKeepsFlowing,
  callPanel,
  callStatus,
  callers,
  iceUfrag,
  incomingCall,
  selectedCandidateTypes,
} from './calls-support.ts';

/**
 * A call forced through TURN: coturn on loopback with the TURN REST scheme, Veil configured with
 * its shared secret and `TURN_RELAY_ONLY`, so both browsers may only use relayed candidates.
 */
describe('calls through a TURN relay (browser)', { timeout: 240_000 }, () => {
  let turn: TestTurnServer | undefined;
  const env: Record<string, string> = {};
  beforeAll(async () => {
    turn = await startTurnServer();
    Object.assign(env, {
      TURN_URLS: turn.turnUrl,
      TURN_SECRET: turn.secret,
      TURN_RELAY_ONLY: 'true',
      TURN_CREDENTIAL_TTL_SECONDS: '600',
    });
  }, 30_000);
  afterAll(() => turn?.stop());
  const veil = useVeilWeb({ env });
  const poll = { timeout: 30_000, interval: 250 };

  it('hands out short-lived TURN REST credentials for the signed-in user only', async () => {
    const { alice } = await callers(veil());
    const anonymous = await fetch(`${veil().url}/api/v1/calls/turn`);
    expect(anonymous.status).toBe(401);
    const config = await alice.page.evaluate(async () => {
      const token = localStorage.getItem('accesstoken') ?? '';
      const response = await fetch('/api/v1/calls/turn', { headers: { Authorization: `Bearer ${token}` } });
      return (await response.json()) as {
        data: {
          iceServers: { urls: string[]; username: string; credential: string }[];
          iceTransportPolicy: string;
        };
      };
    });
    const userId = await alice.page.evaluate(
      () => (JSON.parse(localStorage.getItem('data') ?? '{}') as { _id: string })._id,
    );
    expect(config.data.iceTransportPolicy).toBe('relay');
    const [server] = config.data.iceServers;
    expect(server?.urls).toEqual([turn!.turnUrl]);
    const [expiry, who] = server!.username.split(':');
    expect(who).toBe(userId);
    const lifetime = Number(expiry) - Date.now() / 1000;
    expect(lifetime).toBeGreaterThan(500);
    expect(lifetime).toBeLessThanOrEqual(600);
    expect(server!.credential).toBe(
      createHmac('sha1', turn!.secret).update(server!.username).digest('base64'),
    );
  });

  /** Alice calls Bob, he accepts, and both sides say the call is on. */
  const voiceCallConnected = async () => {
    const { alice, bob } = await callers(veil());
    await alice.page.getByRole('button', { name: `Voice call with ${bob.name}` }).click();
    await incomingCall(bob.page).getByRole('button', { name: 'Accept' }).click();
    for (const page of [alice.page, bob.page])
      await expect.poll(() => callPanel(page).getAttribute('data-phase'), poll).toBe('active');
    return { alice, bob };
  };

  it('connects a call through the relay only, with media flowing both ways', async () => {
    const { alice, bob } = await voiceCallConnected();
    for (const page of [alice.page, bob.page]) {
      await mediaKeepsFlowing(page);
      await expect.poll(() => selectedCandidateTypes(page), poll).toEqual(['relay', 'relay']);
    }
    await alice.page.getByRole('button', { name: 'Hang up' }).click();
  });

  it('shows Reconnecting… when the relay goes away, and recovers on an ICE restart once it is back', async () => {
    const { alice, bob } = await voiceCallConnected();
    const ufrags = [await iceUfrag(alice.page), await iceUfrag(bob.page)];

    // The only way between the two goes: media stops, both say so.
    await turn!.stop();
    for (const page of [alice.page, bob.page])
      await expect.poll(() => callStatus(page).textContent(), poll).toBe('Reconnecting…');

    turn = await startTurnServer(turn);
    for (const page of [alice.page, bob.page])
      await expect.poll(() => callPanel(page).getAttribute('data-phase'), poll).toBe('active');
    for (const page of [alice.page, bob.page]) {
      await mediaKeepsFlowing(page);
      await expect.poll(() => selectedCandidateTypes(page), poll).toEqual(['relay', 'relay']);
    }
    // Back by an ICE restart (new credentials on both sides), not by the old pair waking up.
    expect(await iceUfrag(alice.page)).not.toBe(ufrags[0]);
    expect(await iceUfrag(bob.page)).not.toBe(ufrags[1]);
    await expect.poll(() => callStatus(alice.page).textContent(), poll).toMatch(/^\d+:\d\d$/);
    await alice.page.getByRole('button', { name: 'Hang up' }).click();
  });
});
