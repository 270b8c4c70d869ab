import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { keysRestored } from './key-backup.slice.ts';
import { loggedOut } from '../../lib/session.slice.ts';

/**
 * Entries of the account's own key log that none of its browsers made (`own-log-monitor.ts`), as
 * the check at the last login or page load found them: the alert shows each until it is dismissed.
 */
export interface UnknownOwnEntry {
  hash: string;
  at: string;
  reason: string;
}

interface OwnLogState {
  unknown: UnknownOwnEntry[];
  /** The check ran since this page loaded or the account logged in (whatever it found). */
  checked: boolean;
}

const initialState: OwnLogState = { unknown: [], checked: false };

export const ownLogSlice = createSlice({
  name: 'ownLog',
  initialState,
  reducers: {
    ownLogChecked: (state, action: PayloadAction<UnknownOwnEntry[]>) => {
      state.unknown = action.payload;
      state.checked = true;
    },
    unknownEntryDismissed: (state, action: PayloadAction<string>) => {
      state.unknown = state.unknown.filter((entry) => entry.hash !== action.payload);
    },
  },
  extraReducers: (builder) =>
    builder
      .addCase(loggedOut, () => initialState)
      // New keys here: the check runs again with them.
      .addCase(keysRestored, (state) => {
        state.checked = false;
      }),
  selectors: {
    selectUnknownOwnEntries: (state) => state.unknown,
    selectOwnLogChecked: (state) => state.checked,
  },
});

export const { ownLogChecked, unknownEntryDismissed } = ownLogSlice.actions;
export const { selectUnknownOwnEntries, selectOwnLogChecked } = ownLogSlice.selectors;
