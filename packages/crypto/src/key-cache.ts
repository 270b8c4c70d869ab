import { VeilCryptoError } from './errors.ts';
import { importPublicKeySpkiBase64 } from './keys.ts';

/**
 * Public keys by user id, fetched once and kept. Concurrent requests for one id share one
 * fetch; a failed fetch is not remembered, so the next send tries again.
 */
export class PublicKeyCache {
  readonly #keys = new Map<string, Promise<CryptoKey>>();
  readonly #fetchSpki: (userId: string) => Promise<string>;

  constructor(fetchSpki: (userId: string) => Promise<string>) {
    this.#fetchSpki = fetchSpki;
  }

  get(userId: string): Promise<CryptoKey> {
    let key = this.#keys.get(userId);
    if (!key) {
      key = this.#fetchSpki(userId)
        .then(importPublicKeySpkiBase64)
        .catch(() => {
          this.#keys.delete(userId);
          throw new VeilCryptoError('ERR_PUBLIC_KEY_FETCH', 'Failed to fetch recipient public key');
        });
      this.#keys.set(userId, key);
    }
    return key;
  }

  async getMany(userIds: readonly string[]): Promise<Record<string, CryptoKey>> {
    return Object.fromEntries(
      await Promise.all(userIds.map(async (id) => [id, await this.get(id)] as const)),
    );
  }

  /** Forget a key (e.g. after the server reports a key change). */
  forget(userId: string): void {
    this.#keys.delete(userId);
  }
}
