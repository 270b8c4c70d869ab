import { base64ToBytes, bytesToBase64 } from './base64.ts';
import { VeilCryptoError } from './errors.ts';
import type { SealedBytes } from './key-backup.ts';

/**
 * The cryptography of linking a new browser from a logged-in one (docs/crypto.md, "Linking a
 * browser"). Each browser makes a one-time ECDH P-256 pair; the new browser first commits to its
 * public key (SHA-256), the old one answers with its key, then the new one reveals its own. Both
 * derive, with HKDF-SHA256 over the shared secret and bound to both public keys, a 6-digit
 * confirmation the user compares on the two screens and an AES-GCM key for the account's keys.
 * The commitment is what makes 6 digits enough: a relay that swaps keys must choose its key for
 * the new browser before it learns that browser's key, so it cannot search for a matching code.
 */
const linkVersion = 1;
const ecdh = { name: 'ECDH', namedCurve: 'P-256' } as const;
/** An uncompressed P-256 point: 0x04, then X and Y. */
const publicKeyBytes = 65;

const utf8 = (text: string) => new TextEncoder().encode(text);

export interface LinkKeyPair {
  /** Non-extractable; used once, for one agreement. */
  privateKey: CryptoKey;
  /** The raw public point, base64. */
  publicKey: string;
}

/** Both browsers' one-time public keys: every derived value is bound to the pair. */
export interface LinkParties {
  newBrowser: string;
  oldBrowser: string;
}

export interface LinkAgreement {
  /** Six digits both screens show; equal only when both browsers hold the same secret. */
  confirmation: string;
  /** AES-GCM 256, non-extractable, for the key bundle. */
  bundleKey: CryptoKey;
  parties: LinkParties;
}

export const generateLinkKeyPair = async (): Promise<LinkKeyPair> => {
  const pair = (await crypto.subtle.generateKey(ecdh, false, ['deriveBits'])) as CryptoKeyPair;
  const raw = new Uint8Array(await crypto.subtle.exportKey('raw', pair.publicKey));
  return { privateKey: pair.privateKey, publicKey: bytesToBase64(raw) };
};

/** The new browser's commitment to its public key, sent before it sees the other browser's key. */
export const linkCommitment = async (publicKey: string): Promise<string> =>
  bytesToBase64(
    new Uint8Array(
      await crypto.subtle.digest('SHA-256', utf8(`veil link ${linkVersion}|commitment|${publicKey}`)),
    ),
  );

export const linkCommitmentMatches = async (commitment: string, publicKey: string): Promise<boolean> =>
  (await linkCommitment(publicKey)) === commitment;

const importPeerKey = async (publicKey: string): Promise<CryptoKey> => {
  try {
    const bytes = base64ToBytes(publicKey);
    if (bytes.length !== publicKeyBytes) throw new Error('not an uncompressed P-256 point');
    return await crypto.subtle.importKey('raw', bytes, ecdh, false, []);
  } catch {
    throw new VeilCryptoError('ERR_LINK_KEY', "The other browser's link key is not a P-256 public key");
  }
};

/**
 * The confirmation and the bundle key, from this browser's one-time private key and the other
 * browser's public key. `parties` names both public keys, this browser's included.
 */
export const agreeLink = async (
  ownPrivateKey: CryptoKey,
  peerPublicKey: string,
  parties: LinkParties,
): Promise<LinkAgreement> => {
  const peer = await importPeerKey(peerPublicKey);
  const shared = await crypto.subtle.deriveBits({ name: 'ECDH', public: peer }, ownPrivateKey, 256);
  const base = await crypto.subtle.importKey('raw', shared, 'HKDF', false, ['deriveBits', 'deriveKey']);
  const binding = `veil link ${linkVersion}|${parties.newBrowser}|${parties.oldBrowser}`;
  const hkdf = (role: string): HkdfParams => ({
    name: 'HKDF',
    hash: 'SHA-256',
    salt: new Uint8Array(32),
    info: utf8(`${binding}|${role}`),
  });
  const digits = new DataView(await crypto.subtle.deriveBits(hkdf('confirmation'), base, 32)).getUint32(0);
  const bundleKey = await crypto.subtle.deriveKey(
    hkdf('bundle'),
    base,
    { name: 'AES-GCM', length: 256 },
    false,
    ['encrypt', 'decrypt'],
  );
  return { confirmation: String(digits % 1_000_000).padStart(6, '0'), bundleKey, parties };
};

const bundleParams = (agreement: LinkAgreement, iv: Uint8Array<ArrayBuffer>): AesGcmParams => ({
  name: 'AES-GCM',
  iv,
  additionalData: utf8(
    `veil link ${linkVersion}|bundle|${agreement.parties.newBrowser}|${agreement.parties.oldBrowser}`,
  ),
});

/** Encrypts the account's key bundle (its JSON text) for the new browser. */
export const sealLinkBundle = async (agreement: LinkAgreement, bundle: string): Promise<SealedBytes> => {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const ciphertext = await crypto.subtle.encrypt(
    bundleParams(agreement, iv),
    agreement.bundleKey,
    utf8(bundle),
  );
  return { iv: bytesToBase64(iv), ciphertext: bytesToBase64(new Uint8Array(ciphertext)) };
};

/** The bundle's text; ERR_LINK_BUNDLE when it was not sealed under this agreement or was altered. */
export const openLinkBundle = async (agreement: LinkAgreement, sealed: SealedBytes): Promise<string> => {
  try {
    const plain = await crypto.subtle.decrypt(
      bundleParams(agreement, base64ToBytes(sealed.iv)),
      agreement.bundleKey,
      base64ToBytes(sealed.ciphertext),
    );
    return new TextDecoder().decode(plain);
  } catch {
    throw new VeilCryptoError('ERR_LINK_BUNDLE', 'The keys from the other browser could not be decrypted');
  }
};
