import { createSlice } from '@reduxjs/toolkit';
import { loggedIn, loggedOut } from '../../lib/session.slice.ts';

/**
 * The session's key-backup screens (and the link from another browser, their alternative). In lib/ because several features open them: the chat's
 * "restore it" and banner, the shell's prompt, the profile. `keysVersion` counts the keys this
 * session added (a restore): what shows key state reads it again.
 */
export interface KeyBackupState {
  restoreOpen: boolean;
  /**
   * Set by a login: the restore screen opens by itself once, right after logging in (a page
   * reloaded with a stored session shows the banner and the messages' restore links instead).
   */
  offerRestore: boolean;
  /** The "Protect your messages" prompt was dismissed since the page loaded. */
  promptDismissed: boolean;
  keysVersion: number;
  /** "Link from another browser" is open (this browser has no key; another one has). */
  linkOpen: boolean;
}

const initialState: KeyBackupState = {
  restoreOpen: false,
  offerRestore: false,
  promptDismissed: false,
  keysVersion: 0,
  linkOpen: false,
};

export const keyBackupSlice = createSlice({
  name: 'keyBackup',
  initialState,
  reducers: {
    restoreRequested: (state) => {
      state.restoreOpen = true;
      state.offerRestore = false;
    },
    /** "Not now". */
    restoreClosed: (state) => {
      state.restoreOpen = false;
    },
    /** From the restore screen: get the keys from another browser instead. */
    linkRequested: (state) => {
      state.restoreOpen = false;
      state.offerRestore = false;
      state.linkOpen = true;
    },
    linkClosed: (state) => {
      state.linkOpen = false;
    },
    keysRestored: (state) => {
      state.restoreOpen = false;
      state.keysVersion += 1;
    },
    backupPromptDismissed: (state) => {
      state.promptDismissed = true;
    },
  },
  extraReducers: (builder) =>
    builder
      .addCase(loggedIn, () => ({ ...initialState, offerRestore: true }))
      .addCase(loggedOut, () => initialState),
  selectors: {
    selectRestoreOpen: (state) => state.restoreOpen,
    selectOfferRestore: (state) => state.offerRestore,
    selectPromptDismissed: (state) => state.promptDismissed,
    selectKeysVersion: (state) => state.keysVersion,
    selectLinkOpen: (state) => state.linkOpen,
  },
});

export const {
  restoreRequested,
  restoreClosed,
  keysRestored,
  backupPromptDismissed,
  linkRequested,
  linkClosed,
} = keyBackupSlice.actions;
export const {
  selectRestoreOpen,
  selectOfferRestore,
  selectPromptDismissed,
  selectKeysVersion,
  selectLinkOpen,
} = keyBackupSlice.selectors;
