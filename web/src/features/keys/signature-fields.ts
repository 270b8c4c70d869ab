import type { MessageSignature } from '@veil/contracts';
import type { ActionSequence, SignatureSequence } from '@veil/crypto';

/**
 * A version 2 (or 3: with the franking tag) signature's message fields, as the signature object
 * carries them, for the signed encoding; undefined: version 1. The page and the service worker
 * both read these: nothing here fetches or stores.
 */
export const sequenceOf = (signature: MessageSignature | undefined): SignatureSequence | undefined =>
  signature?.version !== undefined
    ? {
        keyCommitment: signature.keyCommitment ?? '',
        keyLogHeads: signature.keyLogHeads ?? {},
        counter: signature.counter ?? 0,
        prev: signature.prev ?? null,
        ...(signature.version === 3 && { franking: signature.franking ?? '' }),
      }
    : undefined;

/**
 * The same for an action: no commitment when nothing is sealed, the version an edit replaces, and
 * an edit's franking tag (version 3).
 */
export const actionSequenceOf = (signature: MessageSignature | undefined): ActionSequence | undefined =>
  signature?.version !== undefined
    ? {
        keyCommitment: signature.keyCommitment ?? null,
        keyLogHeads: signature.keyLogHeads ?? {},
        counter: signature.counter ?? 0,
        prev: signature.prev ?? null,
        replaces: signature.replaces ?? null,
        ...(signature.version === 3 && { franking: signature.franking ?? '' }),
      }
    : undefined;

/**
 * Whether the key this reader unwrapped is the one a version 2 signature commits to; true for
 * version 1 (no commitment) and for what this reader could not unwrap (it shows why already).
 */
export const commitmentHolds = (
  signature: MessageSignature | undefined,
  unwrapped: string | undefined,
): boolean =>
  signature?.version === undefined || unwrapped === undefined || signature.keyCommitment === unwrapped;
