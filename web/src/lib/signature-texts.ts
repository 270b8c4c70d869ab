import type { VerificationFailure } from './message-verification.ts';

/** What screens say about sender signatures and who a message was sealed for. */
export const signatureTexts = {
  unverifiedLead: 'This message could not be verified',
  unverifiedDeletionLead: 'This message was removed, but its deletion could not be verified',
  legacy: 'Sent before messages were signed',
  verified: 'Signed by its sender',
  sealedForButton: 'Sealed for',
  sealedForTitle: 'Sealed for',
  sealedWrongly: 'Not sealed for exactly the members',
  notSealedFor: 'Left out',
  notMembers: 'Not members',
  membersUnknown: 'Who was a member then is no longer known here',
  refuseToSend: 'This message would not be sealed for exactly the chat’s members, so it was not sent',
  noSigningKeyHere:
    'This browser does not hold your signing key: link it from another browser or restore your key backup',
} as const;

/** Why, in words a reader can act on. */
export const verificationFailureTexts: Record<VerificationFailure, string> = {
  unsigned: 'it is not signed, but its sender signed messages by then',
  'no-signing-key': 'it is signed, but its sender had no signing key then',
  'replaced-key': 'it is signed with a key its sender had replaced by then',
  'bad-signature': 'its signature does not match its text, chat, sender, time or readers',
  'key-log-unavailable': 'its sender’s keys could not be fetched; try again later',
  'key-log-broken': 'its sender’s key log does not check out',
};

export const unverifiedText = (reason: VerificationFailure): string =>
  `${signatureTexts.unverifiedLead}: ${verificationFailureTexts[reason]}`;

/** A tombstone whose deletion does not hold: the text is gone either way, but not by its sender's word. */
export const unverifiedDeletionText = (reason: VerificationFailure): string =>
  `${signatureTexts.unverifiedDeletionLead}: ${verificationFailureTexts[reason]}`;

/** "Sealed for 3 of 3", or "Sealed for 2 of 3" when someone was left out. */
export const sealedForText = (sealed: number, members: number | null): string =>
  members === null ? `Sealed for ${sealed}` : `Sealed for ${sealed} of ${members}`;
