/**
 * What the composer holds per chat, sealed to the account's key.
 * This file is the feature's public entry point: other features import only from here.
 */
export { useDraft } from './use-draft.ts';
