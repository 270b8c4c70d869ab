import { useDispatch, useSelector } from 'react-redux';
import type { AppDispatch, RootState } from './store.ts';

/**
 * The one file of app/ that features import: the typed hooks and the store's types. It only
 * type-imports the store (which imports the features' slices), so no cycle runs at load time.
 */
export type { AppDispatch, RootState };

/** The typed hooks; use these instead of plain useDispatch/useSelector. */
export const useAppDispatch = useDispatch.withTypes<AppDispatch>();
export const useAppSelector = useSelector.withTypes<RootState>();
