import { describe, expect, it } from 'vitest';
import { messageWithText, sayHi, signedUpPerson } from '../flows.ts';
import { phone390, useVeilWeb } from '../harness.ts';

/** A phone of today's common size: the nav along the bottom, each chat's header on one row. */
describe('walk: the app on a 390 px phone (browser)', { timeout: 120_000 }, () => {
  const suite = useVeilWeb();

  it('puts the navigation in a bottom bar and keeps the chat header on one row', async () => {
    const veil = suite();
    const alice = await signedUpPerson({ newPage: () => veil.newPage(phone390) }, 'pal');
    const bob = await signedUpPerson(veil, 'pbo');
    await sayHi(alice.page, bob.name);
    await messageWithText(alice.page, `Hi ${bob.name}`).waitFor();

    const nav = await alice.page.getByRole('navigation', { name: 'Main' }).boundingBox();
    expect(nav!.y + nav!.height).toBeGreaterThan(phone390.height - 2);
    expect(nav!.height).toBeLessThan(80);
    expect(nav!.width).toBeGreaterThan(phone390.width - 2);

    // Say Hi left the chat open.
    const header = alice.page.locator('.chat-header');
    const tops = await header.evaluate((element) =>
      [...element.children]
        .map((child) => child.getBoundingClientRect())
        .filter((box) => box.width > 0)
        .map((box) => Math.round(box.top + box.height / 2)),
    );
    // Every control's middle on one line (within a few pixels), and none past the screen's edge.
    expect(Math.max(...tops) - Math.min(...tops)).toBeLessThanOrEqual(8);
    const rightmost = await header.evaluate((element) =>
      Math.max(...[...element.children].map((child) => child.getBoundingClientRect().right)),
    );
    expect(rightmost).toBeLessThanOrEqual(390);
    expect(await alice.page.getByTestId('chat-title').textContent()).toBe(bob.name);
    expect(await alice.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });
});
