import type { PushDelivery } from '@veil/ports';

/** The message service's attachment rules, from configuration (README, "Configuration"). */
export interface AttachmentSettings {
  /** The largest file, in bytes of the file itself (its encrypted size is 16 bytes per 256 KiB more). */
  maxFileBytes: number;
  /** Encrypted bytes one user may keep stored, sent or not. */
  quotaBytes: number;
  /** An upload no message was sent with is removed this long after it started. */
  graceSeconds: number;
  /** How often the service looks for such uploads. */
  sweepIntervalSeconds: number;
}

export interface MessageSettings {
  attachments: AttachmentSettings;
  push: PushSettings;
  /** The longest wait between passes of message expiry (docs/disappearing-messages.md). */
  expiryCheckSeconds: number;
}

export const defaultAttachmentSettings: AttachmentSettings = {
  maxFileBytes: 100 * 1024 * 1024,
  quotaBytes: 2 * 1024 * 1024 * 1024,
  graceSeconds: 24 * 60 * 60,
  sweepIntervalSeconds: 15 * 60,
};

export const defaultExpiryCheckSeconds = 5;

/** Web Push (docs/web.md, "Push notifications"); absent: this server sends no pushes. */
export interface PushSettings {
  delivery: PushDelivery;
  /** Accept push endpoints on plain http and on this machine or its network (development, tests). */
  allowLocalEndpoints: boolean;
  /** Browsers one account may have subscribed at once. */
  maxSubscriptionsPerUser: number;
}
