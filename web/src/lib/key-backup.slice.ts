import { createSlice } from '@reduxjs/toolkit';
import { loggedIn, loggedOut } from './session.slice.ts';

/**
 * The session's key-backup screens. In lib/ because several features open them: the chat's
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
}

const initialState: KeyBackupState = {
  restoreOpen: false,
  offerRestore: false,
  promptDismissed: false,
  keysVersion: 0,
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
  },
});

export const { restoreRequested, restoreClosed, keysRestored, backupPromptDismissed } =
  keyBackupSlice.actions;
export const { selectRestoreOpen, selectOfferRestore, selectPromptDismissed, selectKeysVersion } =
  keyBackupSlice.selectors;
