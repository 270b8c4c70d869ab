import { createApi } from '@reduxjs/toolkit/query/react';
import { veilBaseQuery } from './base-query.ts';

/**
 * The one API slice for `/api/v1` (RTK docs: one API slice per base URL). Features add their
 * endpoints with `api.injectEndpoints`. No blanket retries: a retried send could post a message
 * twice; the base query only retries once after refreshing an expired token.
 */
export const api = createApi({
  reducerPath: 'api',
  baseQuery: veilBaseQuery,
  tagTypes: ['Chat', 'Messages', 'User', 'Profile', 'KeyStatus', 'Blocks', 'Reports', 'Suspensions'],
  endpoints: () => ({}),
});

/** The list entry of a tag type, next to the per-id entries. */
export const listTag = 'LIST';
