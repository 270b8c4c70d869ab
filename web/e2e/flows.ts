import { randomBytes } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import { expect } from 'vitest';
import type { Locator, Page } from 'playwright-core';

/** UI steps shared by the browser tests. Usernames are random so runs never collide. */
export const uniqueName = (prefix: string): string => `${prefix}_${randomBytes(4).toString('hex')}`;

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (bytes: Buffer): number => {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = crcTable[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
};
const chunk = (type: string, data: Buffer): Buffer => {
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
};

/** A small solid-colour RGB PNG, made here so the test needs no fixture file. */
export const makePng = (size = 24, rgb: [number, number, number] = [220, 60, 90]): Buffer => {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit, truecolour
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: size }, () => rgb).flat())]);
  const pixels = Buffer.concat(Array.from({ length: size }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(pixels)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
};

export interface RecoveryStep {
  /** A passphrase that also opens the backup. */
  passphrase?: string;
  /** "Skip for now": no backup. */
  skip?: boolean;
}

/**
 * Passes the recovery-key step shown after the details (registration, or a backup created later):
 * reads the key on screen, types back the two groups asked for, optionally adds a passphrase,
 * and confirms with `confirm`. Resolves the recovery key as shown.
 */
export const saveRecoveryKey = async (
  page: Page,
  confirm: string,
  { passphrase }: RecoveryStep = {},
): Promise<string> => {
  const recoveryKey = (await page.getByTestId('recovery-key').textContent())!.trim();
  const groups = recoveryKey.split('-');
  for (const field of await page.getByLabel(/^Group \d$/).all()) {
    const number = Number((await field.getAttribute('name'))!.replace('group-', ''));
    await field.fill(groups[number - 1]!);
  }
  if (passphrase) {
    await page.getByRole('checkbox', { name: 'Also unlock with a passphrase' }).check();
    await page.getByLabel('Passphrase', { exact: true }).fill(passphrase);
    await page.getByLabel('Repeat passphrase').fill(passphrase);
  }
  await page.getByRole('button', { name: confirm, exact: true }).click();
  return recoveryKey;
};

/**
 * Registers through the UI: the details, then the recovery key (saved, unless `skip`). Resolves
 * the recovery key (null when skipped) once the new account is signed in, on /all-chats.
 */
export const register = async (
  page: Page,
  username: string,
  password: string,
  picture?: Buffer,
  recovery: RecoveryStep = {},
): Promise<string | null> => {
  await page.goto('/register');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  if (picture) {
    await page
      .getByLabel('Profile Picture (optional)')
      .setInputFiles({ name: 'avatar.png', mimeType: 'image/png', buffer: picture });
  }
  await page.getByRole('button', { name: 'Sign Up' }).click();
  await page.getByRole('heading', { name: 'Save your recovery key' }).waitFor();
  let recoveryKey: string | null = null;
  if (recovery.skip) await page.getByRole('button', { name: 'Skip for now' }).click();
  else recoveryKey = await saveRecoveryKey(page, 'Sign Up', recovery);
  // Registering and signing in are one step now: twice a single step's time on a busy machine.
  await page.waitForURL('**/all-chats', { timeout: 30_000 });
  return recoveryKey;
};

export const login = async (page: Page, username: string, password: string) => {
  await page.goto('/login');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.waitForURL('**/all-chats');
};

/** Registers through the UI (the key pair is made in this browser) and logs in; resolves the recovery key. */
export const signUpAndLogIn = async (
  page: Page,
  username: string,
  password = 'correct horse 1',
  recovery: RecoveryStep = {},
): Promise<string | null> => {
  return register(page, username, password, undefined, recovery);
};

/** Logs out through the nav's dialog; `removeKeys` ticks "Remove this browser's keys" (off by default). */
export const logout = async (page: Page, { removeKeys = false } = {}) => {
  await page.getByRole('button', { name: 'Logout' }).click();
  const dialog = page.getByRole('dialog', { name: 'Log out' });
  if (removeKeys) await dialog.getByRole('checkbox', { name: "Remove this browser's keys" }).check();
  await dialog
    .getByRole('button', { name: removeKeys ? 'Remove keys and log out' : 'Log out', exact: true })
    .click();
  await page.waitForURL((url) => url.pathname === '/');
};

/** The logged-in user's id, from the `data` entry in local storage (docs/web.md, "Storage"). */
export const currentUserId = (page: Page): Promise<string> =>
  page.evaluate(() => (JSON.parse(localStorage.getItem('data') ?? '{}') as { _id: string })._id);

/**
 * A person signed up and logged in through the UI, in a browser context of their own.
 * `prepare` runs on the page before it loads the app (e.g. to make its socket cuttable).
 */
export const signedUpPerson = async (
  veil: { newPage(): Promise<Page> },
  prefix: string,
  prepare?: (page: Page) => Promise<void>,
) => {
  const page = await veil.newPage();
  await prepare?.(page);
  const name = uniqueName(prefix);
  const recoveryKey = (await signUpAndLogIn(page, name))!;
  return { page, name, recoveryKey };
};

/**
 * The same person on another browser (a fresh context): logs in and restores the account's key
 * from the recovery key, so this browser reads and writes as the first one does.
 */
export const sameUserElsewhere = async (
  veil: { newPage(): Promise<Page> },
  person: { name: string; recoveryKey: string },
  password = 'correct horse 1',
): Promise<Page> => {
  const page = await veil.newPage();
  await login(page, person.name, password);
  const restore = restoreDialog(page);
  await restore.getByLabel(/^Recovery key/).fill(person.recoveryKey);
  await restore.getByRole('button', { name: 'Restore' }).click();
  await restore.waitFor({ state: 'detached' });
  return page;
};

/** Waits until `check` passes (polling); for state that arrives over the network. */
export const eventually = async (check: () => Promise<void> | void, timeoutMs = 15_000): Promise<void> => {
  await expect
    .poll(
      async () => {
        try {
          await check();
          return true;
        } catch {
          return false;
        }
      },
      { timeout: timeoutMs, interval: 100 },
    )
    .toBe(true);
};

/** From the Users page, opens the chat with `username` ("Say Hi"); nothing is sent. */
export const openChatFromUsers = async (page: Page, username: string) => {
  await page.goto('/users');
  await page.getByLabel('Search users').fill(username);
  const card = page.getByRole('button', { name: `${username}: Say Hi` });
  await card.hover();
  await card.click();
  await page.waitForURL(/\/all-chats\?chat=/);
};

/** From the Users page, "Say Hi" to `username` and send the suggested "Hi {username}"; resolves once it is sent. */
export const sayHi = async (page: Page, username: string) => {
  await openChatFromUsers(page, username);
  await page.getByRole('button', { name: `Send “Hi ${username}”` }).click();
  await messageWithText(page, `Hi ${username}`).waitFor();
};

/**
 * Opens the chat named `title` from the chat list (it may arrive live, so this waits for it). The
 * title is matched on the row's title only: a group's preview may name the same person.
 */
export const openChat = async (page: Page, title: string) => {
  if (!page.url().includes('/all-chats')) await page.goto('/all-chats');
  await page
    .getByTestId('chat-item')
    .filter({ has: page.getByTestId('chat-item-title').filter({ hasText: title }) })
    .click();
  await page.getByTestId('chat-title').filter({ hasText: title }).waitFor();
};

export const sendMessage = async (page: Page, text: string) => {
  await page.getByRole('textbox', { name: 'Message' }).fill(text);
  await page.getByRole('textbox', { name: 'Message' }).press('Enter');
};

/** The message bubble whose text is exactly `text`. */
export const messageWithText = (page: Page, text: string) =>
  page
    .getByTestId('message')
    .filter({ has: page.getByTestId('message-text').getByText(text, { exact: true }) });

/** The screen that opens after logging in on a browser without the account's key (when a backup exists). */
export const restoreDialog = (page: Page) => page.getByRole('dialog', { name: 'Restore your messages' });

/** "Not now" on that screen. */
export const declineRestore = async (page: Page) => {
  const dialog = restoreDialog(page);
  await dialog.getByRole('button', { name: 'Not now' }).click();
  await dialog.waitFor({ state: 'detached' });
};

/** The text every message shows in a browser that holds no key for the account. */
export const noKeyHereText = 'This browser has no key for your account yet: restore it';

/** Opens a message's actions menu from the keyboard: focus its actions button, Enter. */
export const openMessageMenu = async (message: Locator) => {
  await message.getByRole('button', { name: /^Actions for message from / }).focus();
  await message.page().keyboard.press('Enter');
  const menu = message.getByRole('menu');
  await menu.waitFor();
  return menu;
};

/** Two people signed up, Alice said Hi, and both have the chat open. */
export const chatBetween = async (
  veil: { newPage(): Promise<Page> },
  prefixes: [string, string] = ['mal', 'mbo'],
) => {
  const alice = await signedUpPerson(veil, prefixes[0]);
  const bob = await signedUpPerson(veil, prefixes[1]);
  await sayHi(alice.page, bob.name);
  await openChat(bob.page, alice.name);
  await messageWithText(bob.page, `Hi ${bob.name}`).waitFor();
  return { alice, bob };
};

/** Clicks one of the open chat's header options ("More"), opening the menu when it is closed. */
export const chatOption = async (page: Page, name: string) => {
  const option = page.getByRole('button', { name, exact: true });
  if (!(await option.isVisible())) await page.getByRole('button', { name: 'More', exact: true }).click();
  await option.click();
};

/**
 * Creates a group over the API as the page's account, as a client that does not sign group
 * changes would: the quickest way to a group for tests about what follows. Answers its id.
 */
export const createGroupOverApi = (page: Page, name: string, memberIds: string[]): Promise<string> =>
  page.evaluate(
    async ({ groupName, participants }) => {
      const res = await fetch('/api/v1/chat/creategroupchat', {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${localStorage.getItem('accesstoken')}`,
          'Content-Type': 'application/json',
        },
        body: JSON.stringify({ groupName, participants }),
      });
      return ((await res.json()) as { data: { _id: string } }).data._id;
    },
    { groupName: name, participants: memberIds },
  );

/** What `recordNotifications`' init script keeps in a page: whether the tab is hidden, the notifications shown. */
interface NotificationRecord {
  hiddenForTest?: boolean;
  shown: { title: string; body?: string }[];
}

/**
 * Makes `page`, before it loads the app, one whose tab the test hides and shows
 * (`notificationRecord(page).hide`) and whose notifications it records (`.shown`).
 */
export const recordNotifications = async (page: Page): Promise<void> => {
  await page.addInitScript(() => {
    const state = window as unknown as NotificationRecord;
    state.shown = [];
    Object.defineProperty(Document.prototype, 'visibilityState', {
      get: () => (state.hiddenForTest ? 'hidden' : 'visible'),
      configurable: true,
    });
    const Shown = window.Notification;
    window.Notification = class extends Shown {
      constructor(title: string, options?: NotificationOptions) {
        super(title, options);
        state.shown.push({ title, ...(options?.body !== undefined && { body: options.body }) });
      }
    } as typeof Notification;
  });
};

/** The notifications a page prepared by `recordNotifications` showed since it loaded, and its tab's switch. */
export const notificationRecord = (page: Page) => ({
  shown: () => page.evaluate(() => (window as unknown as NotificationRecord).shown),
  hide: (hidden: boolean) =>
    page.evaluate((value) => void ((window as unknown as NotificationRecord).hiddenForTest = value), hidden),
});

/** Allows notifications for the page's origin and turns them on from the profile, as a user does. */
export const turnOnNotifications = async (page: Page) => {
  await page.context().grantPermissions(['notifications'], { origin: new URL(page.url()).origin });
  await page.goto('/profile');
  const toggle = page.getByRole('switch', { name: /Notify me of new messages/ });
  // It turns on once the browser has said yes, so the click's own state is not the end of it.
  await toggle.click();
  await expect.poll(() => toggle.isChecked()).toBe(true);
};

/** Renames the page's account from its profile, as its owner does; resolves once it is saved. */
export const renameSelf = async (page: Page, username: string) => {
  await page.goto('/profile');
  await page.getByRole('button', { name: 'Edit Profile' }).click();
  await page.getByLabel('Username').fill(username);
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByText('Profile updated successfully!').waitFor();
};

/** Opens the open group's "Group info" dialog. */
export const openGroupInfo = async (page: Page) => {
  await page.getByRole('button', { name: 'Group info' }).click();
  const dialog = page.getByRole('dialog', { name: 'Group info' });
  await dialog.waitFor();
  return dialog;
};

/**
 * Everything an IndexedDB object store of the page's origin holds, as text (binary fields read as
 * Latin-1), to check that nothing readable rests there; '' when the store does not exist.
 */
export const storedInIndexedDb = (page: Page, database: string, storeName: string): Promise<string> =>
  page.evaluate(
    async ({ database, storeName }) => {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const open = indexedDB.open(database);
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => reject(open.error);
      });
      if (!db.objectStoreNames.contains(storeName)) return (db.close(), '');
      const values = await new Promise<unknown[]>((resolve, reject) => {
        const all = db.transaction(storeName).objectStore(storeName).getAll();
        all.onsuccess = () => resolve(all.result);
        all.onerror = () => reject(all.error);
      });
      db.close();
      return JSON.stringify(values, (_key, value: unknown) =>
        value instanceof ArrayBuffer || ArrayBuffer.isView(value)
          ? String.fromCharCode(...new Uint8Array(value instanceof ArrayBuffer ? value : value.buffer))
          : value,
      );
    },
    { database, storeName },
  );
