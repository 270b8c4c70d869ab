import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { desktop, phone, startVeilWeb } from './harness.ts';
import { makePng, messageWithText, openChat, register, sayHi, sendMessage, uniqueName } from './flows.ts';

/**
 * Not a test: screenshots of every screen, wide (1280 px) and phone (360 px), light and dark,
 * for reviewing the layout by eye. Run:
 * `CHROMIUM_PATH=/usr/bin/chromium node web/e2e/capture-screens.ts [outDir]`
 * (default: veil-screens in the system's temporary folder).
 */
const out = process.argv[2] ?? path.join(tmpdir(), 'veil-screens');
mkdirSync(out, { recursive: true });
const veil = await startVeilWeb();
try {
  const alice = await veil.newPage(desktop);
  const bob = await veil.newPage(desktop);
  const aliceName = uniqueName('alice');
  const bobName = uniqueName('bob');
  await register(alice, aliceName, 'password 12345', makePng(32, [40, 120, 220]));
  await register(bob, bobName, 'password 12345');
  await sayHi(alice, bobName);
  const chatUrl = alice.url();
  await openChat(bob, aliceName);
  const long = 'Hello! This is a longer message to see how the bubble wraps across lines in the chat window.';
  await sendMessage(bob, long);
  const received = messageWithText(alice, long);
  await received.hover();
  await received.getByRole('button', { name: 'Reply' }).click();
  await sendMessage(alice, 'Replying with a quote');
  await messageWithText(bob, 'Replying with a quote').waitFor();

  for (const theme of ['light', 'dark']) {
    await alice.evaluate((value) => localStorage.setItem('theme', value), theme);
    for (const [label, viewport] of [
      ['wide', desktop],
      ['phone', phone],
    ] as const) {
      await alice.setViewportSize(viewport);
      await alice.goto(chatUrl);
      await alice.getByTestId('chat-title').waitFor();
      await bob.getByRole('textbox', { name: 'Message' }).pressSequentially('typing', { delay: 50 });
      await alice.getByText(`${bobName} typing...`).waitFor();
      await alice.screenshot({ path: `${out}/chat-${label}-${theme}.png` });
      if (label === 'phone') {
        await alice.getByRole('button', { name: 'Show chats' }).click();
        await alice.screenshot({ path: `${out}/chat-list-${label}-${theme}.png` });
      }
      await alice.getByRole('button', { name: 'Create group chat' }).click();
      await alice.getByLabel('Group Name').fill('Weekend plans');
      await alice.getByRole('button', { name: 'Next' }).click();
      await alice.getByRole('heading', { name: 'Select Members' }).waitFor();
      await alice.screenshot({ path: `${out}/group-${label}-${theme}.png` });
      await alice.keyboard.press('Escape');
      for (const [name, path, ready] of [
        ['welcome', '/', 'Start Chatting'],
        ['users', '/users', 'All Users'],
        ['profile', '/profile', 'Change Password'],
      ] as const) {
        await alice.goto(path);
        await alice.getByText(ready).first().waitFor();
        await alice.screenshot({ path: `${out}/${name}-${label}-${theme}.png` });
      }
      await alice.getByRole('button', { name: 'Logout' }).click();
      await alice.getByRole('checkbox', { name: "Remove this browser's keys" }).check();
      await alice.screenshot({ path: `${out}/logout-${label}-${theme}.png` });
      await alice.keyboard.press('Escape');
    }
  }
  const visitor = await veil.newPage(phone);
  await visitor.goto('/register');
  await visitor.getByRole('button', { name: 'Sign Up' }).click();
  await visitor.screenshot({ path: `${out}/register-errors-phone-light.png` });
  await visitor.goto('/');
  await visitor.screenshot({ path: `${out}/welcome-visitor-phone-light.png` });
  console.log(`Screenshots in ${out}`);
} finally {
  await veil.stop();
}
