import { combineSlices, configureStore } from '@reduxjs/toolkit';
import { outboxSlice } from '../features/chats/outbox/outbox.slice.ts';
import { themeSlice } from '../features/theme/theme.slice.ts';
import { api } from '../lib/api.ts';
import { keyBackupSlice } from '../lib/key-backup.slice.ts';
import { ownLogSlice } from '../lib/own-log.slice.ts';
import { sessionSlice } from '../lib/session.slice.ts';

const rootReducer = combineSlices(api, sessionSlice, themeSlice, keyBackupSlice, ownLogSlice, outboxSlice);

export type RootState = ReturnType<typeof rootReducer>;

/** One factory for the app and for tests; slices read local storage for their initial state. */
export const makeStore = (preloadedState?: Partial<RootState>) =>
  configureStore({
    reducer: rootReducer,
    middleware: (getDefaultMiddleware) => getDefaultMiddleware().concat(api.middleware),
    ...(preloadedState ? { preloadedState } : {}),
  });

export type AppStore = ReturnType<typeof makeStore>;
export type AppDispatch = AppStore['dispatch'];
