import { isSignedKeyLogEntry, type KeyLogEntry, type SignatureVerdict } from '@veil/crypto';

/**
 * An unsigned message is history from before signatures (`legacy`) only if it was stored before
 * its sender's first signed key log entry: from that entry on, every browser of the account signs
 * all it sends, so an unsigned message stored later is a forgery, whatever else its time says. A
 * log with no signed entry at all was never a checked one: nothing in it counts as history.
 */
export const legacyOnlyBeforeSignedLog = (
  entries: readonly KeyLogEntry[],
  at: string,
  verdict: SignatureVerdict,
): SignatureVerdict => {
  if (verdict.status !== 'legacy') return verdict;
  const signedSince = entries.find(isSignedKeyLogEntry)?.at;
  return signedSince !== undefined && Date.parse(at) < Date.parse(signedSince)
    ? verdict
    : { status: 'failed', reason: 'unsigned' };
};
