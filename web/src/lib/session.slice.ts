import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { PublicUser } from '@veil/contracts';
import { readStoredUser } from './storage.ts';

/**
 * The seed contract's authentication state (docs/web.md, "State and data" and "Routes and guards"): `status` is true exactly when a user
 * record is stored under `data`. It lives in lib/ because every feature reads it and the
 * HTTP layer ends it when a token cannot be refreshed.
 */
export interface SessionState {
  status: boolean;
  data: PublicUser | null;
}

const fromStorage = (): SessionState => {
  const data = readStoredUser();
  return { status: data !== null, data };
};

export const sessionSlice = createSlice({
  name: 'session',
  initialState: fromStorage,
  reducers: {
    loggedIn: (_state, action: PayloadAction<PublicUser>) => ({ status: true, data: action.payload }),
    profileChanged: (state, action: PayloadAction<PublicUser>) => {
      if (state.data) state.data = action.payload;
    },
    /** Logout, or a session the server no longer accepts (refresh failed). */
    loggedOut: () => ({ status: false, data: null }),
  },
  selectors: {
    selectIsLoggedIn: (state) => state.status,
    selectCurrentUser: (state) => state.data,
  },
});

export const { loggedIn, profileChanged, loggedOut } = sessionSlice.actions;
export const { selectIsLoggedIn, selectCurrentUser } = sessionSlice.selectors;
