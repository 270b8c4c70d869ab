import { startVeilWeb, desktop, phone } from './harness.ts';
import {
  makePng,
  messageWithText,
  openChat,
  register,
  login,
  sayHi,
  sendMessage,
  uniqueName,
} from './flows.ts';
import { mkdirSync } from 'node:fs';
const out = '/tmp/webshots';
mkdirSync(out, { recursive: true });
const veil = await startVeilWeb();
try {
  const a = await veil.newPage(desktop);
  const b = await veil.newPage(desktop);
  const an = uniqueName('alice'),
    bn = uniqueName('bob');
  await register(a, an, 'password 12345', makePng(32, [40, 120, 220]));
  await login(a, an, 'password 12345');
  await register(b, bn, 'password 12345');
  await login(b, bn, 'password 12345');
  await sayHi(a, bn);
  const chatUrl = a.url();
  await openChat(b, an);
  await sendMessage(
    b,
    'Hello! This is a longer message to see how the bubble wraps across multiple lines in the chat window.',
  );
  await messageWithText(
    a,
    'Hello! This is a longer message to see how the bubble wraps across multiple lines in the chat window.',
  ).waitFor();
  const m = messageWithText(
    a,
    'Hello! This is a longer message to see how the bubble wraps across multiple lines in the chat window.',
  );
  await m.hover();
  await m.getByRole('button', { name: 'Reply' }).click();
  await sendMessage(a, 'Replying with a quote');
  await messageWithText(b, 'Replying with a quote').waitFor();
  await new Promise((r) => setTimeout(r, 2500));
  await b.getByRole('textbox', { name: 'Message' }).pressSequentially('typ', { delay: 50 });
  const pages: [string, string][] = [
    ['welcome', '/'],
    ['users', '/users'],
    ['profile', '/profile'],
  ];
  for (const theme of ['light', 'dark']) {
    await a.evaluate((t) => localStorage.setItem('theme', t), theme);
    for (const [label, vp] of [
      ['wide', desktop],
      ['phone', phone],
    ] as const) {
      await a.setViewportSize(vp);
      await a.goto(chatUrl);
      await a.getByTestId('chat-title').waitFor();
      await b.getByRole('textbox', { name: 'Message' }).pressSequentially('x', { delay: 50 });
      await a.waitForTimeout(400);
      await a.screenshot({ path: `${out}/chat-${label}-${theme}.png` });
      if (label === 'phone') {
        await a.getByRole('button', { name: 'Show chats' }).click();
        await a.screenshot({ path: `${out}/chatlist-${label}-${theme}.png` });
      }
      await a
        .getByRole('button', { name: 'Create group chat' })
        .click()
        .catch(() => undefined);
      await a.getByLabel('Group Name').fill('Weekend plans');
      await a.getByRole('button', { name: 'Next' }).click();
      await a.getByRole('heading', { name: 'Select Members' }).waitFor();
      await a.screenshot({ path: `${out}/group-${label}-${theme}.png` });
      await a.keyboard.press('Escape');
      for (const [name, path] of pages) {
        await a.goto(path);
        await a.waitForTimeout(300);
        await a.screenshot({ path: `${out}/${name}-${label}-${theme}.png` });
      }
    }
  }
  const v = await veil.newPage(phone);
  await v.goto('/register');
  await v.getByRole('button', { name: 'Sign Up' }).click();
  await v.screenshot({ path: `${out}/register-phone-light.png` });
  await v.goto('/');
  await v.screenshot({ path: `${out}/welcome-visitor-phone-light.png` });
} finally {
  await veil.stop();
}
