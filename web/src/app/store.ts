import {
  combineSlices,
  configureStore,
  createDynamicMiddleware,
  type Reducer,
  type UnknownAction,
} from '@reduxjs/toolkit';
import { outboxSlice } from '../features/messages/outbox/outbox.slice.ts';
import { themeSlice } from '../features/theme/theme.slice.ts';
import type { api } from '../lib/api.ts';
import { keyBackupSlice } from '../features/keys/key-backup.slice.ts';
import { ownLogSlice } from '../features/keys/own-log.slice.ts';
import { sessionSlice } from '../lib/session.slice.ts';

type ApiState = ReturnType<(typeof api)['reducer']>;

/**
 * The API slice (RTK Query, a good part of the script) joins the store when the first page
 * that calls the API loads (`apiReady`), so a visitor's first page does not carry it.
 */
const rootReducer = combineSlices(
  sessionSlice,
  themeSlice,
  keyBackupSlice,
  ownLogSlice,
  outboxSlice,
).withLazyLoadedSlices<{
  api: ApiState;
}>();

/** `api` is there once `apiReady()` has resolved, which every page that reads it waits for. */
export type RootState = ReturnType<typeof rootReducer> & { api: ApiState };

const stores = new Set<{ dispatch: (action: { type: string }) => unknown }>();
const dynamic = createDynamicMiddleware();
let injecting: Promise<void> | undefined;

/** Adds the API slice and its middleware (once); resolves when every store holds its state. */
export const apiReady = (): Promise<void> =>
  (injecting ??= import('../lib/api.ts').then(({ api }) => {
    rootReducer.inject(api);
    dynamic.addMiddleware(api.middleware);
    // Any action gives a store the injected slice's initial state.
    for (const store of stores) store.dispatch({ type: 'app/apiReady' });
  }));

/** One factory for the app and for tests; slices read local storage for their initial state. */
export const makeStore = (preloadedState?: Partial<RootState>) => {
  const store = configureStore({
    // Typed with `api`: every reader of it waits for `apiReady`.
    reducer: rootReducer as Reducer<RootState, UnknownAction, Partial<RootState>>,
    middleware: (getDefaultMiddleware) => getDefaultMiddleware().concat(dynamic.middleware),
    preloadedState,
  });
  stores.add(store);
  return store;
};

export type AppStore = ReturnType<typeof makeStore>;
export type AppDispatch = AppStore['dispatch'];
