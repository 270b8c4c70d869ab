import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  login,
  messageWithText,
  openChat,
  register,
  sayHi,
  sendMessage,
  signUpAndLogIn,
  uniqueName,
} from './flows.ts';
import { startVeilWeb, type VeilWeb } from './harness.ts';

/** Access tokens live 30 s here (the minimum Veil accepts), so a test can outlive one. */
const tokenTtlSeconds = 30;

const accessToken = (page: Page) => page.evaluate(() => localStorage.getItem('accesstoken'));

/** The `exp` of the page's current access token, in ms. */
const tokenExpiry = async (page: Page): Promise<number> => {
  const token = (await accessToken(page)) ?? '';
  const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as {
    exp: number;
  };
  return payload.exp * 1000;
};

/** Keeps a page from ever opening its websocket, so only HTTP calls can renew its session. */
const withoutRealtime = (page: Page) => page.routeWebSocket(/\/socket\.io\//, (route) => void route.close());

describe('session renewal (browser)', { timeout: 150_000 }, () => {
  let veil: VeilWeb;
  beforeAll(async () => {
    veil = await startVeilWeb({ env: { ACCESS_TOKEN_TTL_SECONDS: String(tokenTtlSeconds) } });
  }, 240_000);
  afterEach(({ task }) => veil.finishTest(task));
  afterAll(() => veil?.stop());

  it('refreshes once for every caller at once, across the tabs of a browser', async () => {
    const name = uniqueName('stab');
    const first = await veil.newPage();
    await signUpAndLogIn(first, name);
    const context = first.context();
    const second = await context.newPage();
    await second.goto('/users');
    await second.getByLabel('Search users').waitFor();

    // Every refresh request of the browser, by the refresh token it spends. The first is held
    // until the other tab wants new tokens too: it has sent a refresh of its own, or it waits for
    // the browser-wide refresh lock (the Web Lock `veil-token-refresh`) the first one holds.
    const spent: string[] = [];
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await context.route('**/api/v1/user/refresh', async (route) => {
      spent.push((route.request().postDataJSON() as { refreshtoken: string }).refreshtoken);
      if (spent.length === 1) await released;
      await route.continue();
    });
    const otherWaits = () =>
      second.evaluate(async () =>
        Boolean((await navigator.locks.query()).pending?.some((lock) => lock.name === 'veil-token-refresh')),
      );

    // An access token the server refuses, in both tabs at once (they share local storage); both
    // open the profile, whose first load asks the server.
    await first.evaluate(() => localStorage.setItem('accesstoken', 'no.such.token'));
    await Promise.all([first, second].map((page) => page.getByRole('link', { name }).click()));
    await expect.poll(async () => spent.length > 1 || (await otherWaits()), { timeout: 20_000 }).toBe(true);
    release();
    for (const page of [first, second])
      await page.getByTestId('profile-username').getByText(name).waitFor({ timeout: 20_000 });

    // Nobody spent a refresh token twice (the server would have ended the session), and both
    // tabs carry on signed in.
    expect(spent.length).toBeGreaterThan(0);
    expect(new Set(spent).size).toBe(spent.length);
    expect(await accessToken(second)).not.toBe('no.such.token');
    for (const page of [first, second]) {
      await page.getByRole('link', { name: 'Users' }).click();
      await page.getByLabel('Search users').waitFor();
      expect(page.url()).toContain('/users');
    }
  });

  it('refreshes expired tokens for the socket and for API calls, and ends a revoked session', async () => {
    // Socket path: Alice and Bob chat; their sockets are dropped at expiry and must come back.
    const alice = { page: await veil.newPage(), name: uniqueName('sal') };
    const bob = { page: await veil.newPage(), name: uniqueName('sbo') };
    await signUpAndLogIn(alice.page, alice.name);
    await signUpAndLogIn(bob.page, bob.name);
    await sayHi(alice.page, bob.name);
    await openChat(bob.page, alice.name);
    const bobFirstToken = await accessToken(bob.page);

    // HTTP path: Carol has no socket; her first call after expiry gets a 401, refreshes, retries.
    const carol = { page: await veil.newPage(), name: uniqueName('sca') };
    await withoutRealtime(carol.page);
    await signUpAndLogIn(carol.page, carol.name);
    const carolFirstToken = await accessToken(carol.page);

    // Revoked: Dana changes her password on another device, which revokes every refresh token.
    const dana = { page: await veil.newPage(), name: uniqueName('sda') };
    const danaElsewhere = await veil.newPage();
    await withoutRealtime(dana.page);
    await register(dana.page, dana.name, 'dana password 1');
    await login(danaElsewhere, dana.name, 'dana password 1');
    await danaElsewhere.goto('/profile');
    await danaElsewhere.getByLabel('Current Password').fill('dana password 1');
    await danaElsewhere.getByLabel('New Password').fill('dana password 2');
    await danaElsewhere.getByRole('button', { name: 'Update Password' }).click();
    await danaElsewhere.getByText('Password updated successfully!').waitFor();

    const expiry = Math.max(...(await Promise.all([bob.page, carol.page, dana.page].map(tokenExpiry))));
    await expect
      .poll(() => Date.now() > expiry + 1000, { timeout: (tokenTtlSeconds + 10) * 1000, interval: 500 })
      .toBe(true);

    await expect.poll(() => accessToken(bob.page), { timeout: 20_000 }).not.toBe(bobFirstToken);
    await sendMessage(alice.page, 'Still there after the expiry?');
    await messageWithText(bob.page, 'Still there after the expiry?').waitFor({ timeout: 20_000 });
    await sendMessage(bob.page, 'Yes, still here');
    await messageWithText(alice.page, 'Yes, still here').waitFor();

    await carol.page.getByRole('link', { name: carol.name }).click();
    await carol.page.getByTestId('profile-username').getByText(carol.name).waitFor();
    expect(await accessToken(carol.page)).not.toBe(carolFirstToken);

    await dana.page.getByRole('link', { name: dana.name }).click();
    await dana.page.waitForURL('**/login');
    expect(await dana.page.evaluate(() => localStorage.length)).toBe(0);
    // The device that changed the password logged in again with it, so its session carries on.
    await danaElsewhere.reload();
    await danaElsewhere.getByTestId('profile-username').getByText(dana.name).waitFor();
    expect(danaElsewhere.url()).toContain('/profile');
  });
});
