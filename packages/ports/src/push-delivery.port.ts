/** Where a browser receives Web Push messages, and the keys they are encrypted to (base64url). */
export interface PushTarget {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

/**
 * Web Push (RFC 8030) with encrypted payloads (RFC 8291) and VAPID (RFC 8292): the application
 * server's side. The push service in between sees only the encrypted payload.
 */
export interface PushDelivery {
  /** The application server's VAPID public key (base64url), which browsers subscribe with. */
  readonly publicKey: string;
  /**
   * Encrypts `payload` to the target's keys and posts it to its endpoint. Resolves with the push
   * service's status (201 accepted; 404 and 410 mean the subscription is gone for good); rejects
   * only when the push service could not be reached.
   */
  send(
    target: PushTarget,
    payload: string,
    options: { ttlSeconds: number; urgency?: 'normal' | 'high' },
  ): Promise<{ status: number }>;
}
