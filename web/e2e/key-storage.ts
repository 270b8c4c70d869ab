import type { Page } from 'playwright-core';

/**
 * Looks into a browser context's IndexedDB the way the app stores keys: idb-keyval's default
 * database `keyval-store`, object store `keyval`. Everything runs in the page (on the app's
 * origin), so what is checked is what the browser really holds.
 */

/** One stored private key as the page sees it. */
export interface StoredKeySummary {
  isCryptoKey: boolean;
  extractable: boolean | null;
  usages: string[];
  /** Whether `crypto.subtle.exportKey('jwk', key)` refused. */
  exportRejected: boolean;
  publicKey: string;
}

export interface KeyStoreSnapshot {
  /** Every entry name in the store, sorted. */
  entries: string[];
  /** `private-keys:<userId>` entries by user id. */
  accounts: Record<string, StoredKeySummary[]>;
  /** `signing-keys:<userId>` entries by user id. */
  signing: Record<string, StoredKeySummary[]>;
  /** The JWK an earlier version kept under `my-private-key`, if any. */
  legacy: JsonWebKey | null;
}

export const readKeyStore = (page: Page): Promise<KeyStoreSnapshot> =>
  page.evaluate(async () => {
    const request = <T>(r: IDBRequest<T>) =>
      new Promise<T>((resolve, reject) => {
        r.onsuccess = () => resolve(r.result);
        r.onerror = () => reject(r.error);
      });
    const open = indexedDB.open('keyval-store');
    open.onupgradeneeded = () => open.result.createObjectStore('keyval');
    const db = await request(open);
    try {
      const store = db.transaction('keyval').objectStore('keyval');
      const [names, values] = await Promise.all([request(store.getAllKeys()), request(store.getAll())]);
      const snapshot: KeyStoreSnapshot = {
        entries: names.map(String).sort(),
        accounts: {},
        signing: {},
        legacy: null,
      };
      for (const [index, name] of names.entries()) {
        const value: unknown = values[index];
        if (name === 'my-private-key') snapshot.legacy = value as JsonWebKey;
        const [, kind, userId] = String(name).match(/^(private|signing)-keys:(.+)$/) ?? [];
        if (!userId) continue;
        snapshot[kind === 'private' ? 'accounts' : 'signing'][userId] = await Promise.all(
          (value as { privateKey: unknown; publicKey: string }[]).map(async ({ privateKey, publicKey }) => {
            const isCryptoKey = privateKey instanceof CryptoKey;
            const exportRejected = isCryptoKey
              ? await crypto.subtle.exportKey('jwk', privateKey).then(
                  () => false,
                  () => true,
                )
              : false;
            return {
              isCryptoKey,
              extractable: isCryptoKey ? privateKey.extractable : null,
              usages: isCryptoKey ? [...privateKey.usages] : [],
              exportRejected,
              publicKey,
            };
          }),
        );
      }
      return snapshot;
    } finally {
      db.close();
    }
  });

/** Writes a private JWK under `my-private-key`, exactly as earlier versions did (idb-keyval's `set`). */
export const writeLegacyKey = (page: Page, jwk: JsonWebKey): Promise<void> =>
  page.evaluate(async (key) => {
    const open = indexedDB.open('keyval-store');
    open.onupgradeneeded = () => open.result.createObjectStore('keyval');
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    const transaction = db.transaction('keyval', 'readwrite');
    transaction.objectStore('keyval').put(key, 'my-private-key');
    await new Promise((resolve, reject) => {
      transaction.oncomplete = resolve;
      transaction.onerror = () => reject(transaction.error);
    });
    db.close();
  }, jwk);

/**
 * The account's newest signing key, taken out of the browser as malware on the machine (or a
 * copied profile with the browser's own key storage) could: its sealed copy unsealed in the page,
 * exported as PKCS#8 (base64).
 */
export const stealSigningKey = (page: Page, userId: string): Promise<string> =>
  page.evaluate(async (id) => {
    const open = indexedDB.open('keyval-store');
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    const request = db.transaction('keyval').objectStore('keyval').get(`signing-keys:${id}`);
    const keys = await new Promise<
      {
        storedAt: number;
        sealed: { sealingKey: CryptoKey; iv: Uint8Array<ArrayBuffer>; sealed: ArrayBuffer };
      }[]
    >((resolve, reject) => {
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    db.close();
    const { sealed } = [...keys].sort((a, b) => b.storedAt - a.storedAt)[0]!;
    const key = await crypto.subtle.unwrapKey(
      'pkcs8',
      sealed.sealed,
      sealed.sealingKey,
      {
        name: 'AES-GCM',
        iv: sealed.iv,
        additionalData: new TextEncoder().encode('veil sealed private key 1'),
      },
      { name: 'ECDSA', namedCurve: 'P-256' },
      true,
      ['sign'],
    );
    const pkcs8 = new Uint8Array(await crypto.subtle.exportKey('pkcs8', key));
    return btoa(String.fromCharCode(...pkcs8));
  }, userId);
