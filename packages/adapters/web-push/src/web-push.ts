import type { PushDelivery, PushTarget } from '@veil/ports';
import webPush from 'web-push';

export interface VapidKeys {
  /** base64url, an uncompressed P-256 point. */
  publicKey: string;
  /** base64url, the P-256 private scalar. */
  privateKey: string;
}

/** A fresh VAPID key pair (kept once per deployment: browsers subscribe to the public key). */
export const generateVapidKeys = (): VapidKeys => webPush.generateVAPIDKeys();

/** How long the push service may take to answer before a delivery counts as failed. */
const requestTimeoutMs = 10_000;

/**
 * PushDelivery over the `web-push` library: it encrypts the payload (aes128gcm) and signs the
 * VAPID header; the request itself goes out with fetch, which speaks both https (every real
 * push service) and the plain http of a push service on this machine in development.
 */
export const createWebPushDelivery = (vapid: VapidKeys & { subject: string }): PushDelivery => ({
  publicKey: vapid.publicKey,
  async send(target: PushTarget, payload: string, { ttlSeconds, urgency = 'normal' }) {
    const request = webPush.generateRequestDetails(target, payload, {
      vapidDetails: vapid,
      TTL: ttlSeconds,
      urgency,
    });
    const response = await fetch(request.endpoint, {
      method: request.method,
      headers: request.headers as Record<string, string>,
      body: new Uint8Array(request.body),
      redirect: 'error',
      signal: AbortSignal.timeout(requestTimeoutMs),
    });
    await response.body?.cancel();
    return { status: response.status };
  },
});
