import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import type { TestPushService } from '@veil/test-env';
import { currentUserId, turnOnNotifications } from './flows.ts';

/**
 * Web Push in the browser tests. Headless Chromium has no push service of its own, so the server
 * pushes to one on loopback that the test starts, and the test hands what arrived to the page's
 * service worker through the DevTools protocol, as the browser's push service would.
 */

/**
 * Turns notifications on in `page` (the service worker is registered from that click) and
 * subscribes it at the test's push service. Answers the subscription (to open what is pushed to
 * it) and how to hand data to the page's service worker.
 */
export const subscribeAtTestPushService = async (
  page: Page,
  veilUrl: string,
  pushService: TestPushService,
) => {
  await turnOnNotifications(page);
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  const cdp = await page.context().newCDPSession(page);
  const registered = new Promise<string>((resolve) =>
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const live = registrations.find((r) => r.scopeURL === `${veilUrl}/` && !r.isDeleted);
      if (live) resolve(live.registrationId);
    }),
  );
  await cdp.send('ServiceWorker.enable');
  const registrationId = await registered;

  // This browser's subscription, at the test's push service (the browser could not make one).
  const userId = await currentUserId(page);
  const browser = pushService.subscription(`browser-${userId}`);
  const subscribed = await page.evaluate(
    async (body) =>
      (
        await fetch('/api/v1/push/subscriptions', {
          method: 'POST',
          headers: {
            'Content-Type': 'application/json',
            Authorization: `Bearer ${localStorage.getItem('accesstoken')}`,
          },
          body: JSON.stringify(body),
        })
      ).status,
    { endpoint: browser.endpoint, keys: browser.keys },
  );
  expect(subscribed).toBe(201);
  const deliverToWorker = async (data: string) => {
    await cdp.send('ServiceWorker.deliverPushMessage', { origin: veilUrl, registrationId, data });
  };
  return { userId, browser, deliverToWorker };
};

/**
 * The users whose checked key logs the page stored for `accountId` (IndexedDB `veil-contacts`,
 * as the service worker reads them); a database not made yet is left alone.
 */
export const storedKeyLogs = (page: Page, accountId: string) =>
  page.evaluate(
    (accountId) =>
      new Promise<string[]>((resolve, reject) => {
        const open = indexedDB.open('veil-contacts');
        open.onupgradeneeded = () => open.transaction?.abort();
        open.onerror = () => resolve([]);
        open.onsuccess = () => {
          const db = open.result;
          const read = db.transaction('contacts').objectStore('contacts').get(`key-logs:${accountId}`);
          read.onsuccess = () => {
            resolve(Object.keys((read.result as Record<string, unknown> | undefined) ?? {}));
            db.close();
          };
          read.onerror = () => reject(read.error);
        };
      }),
    accountId,
  );
