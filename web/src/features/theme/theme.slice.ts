import { createSlice } from '@reduxjs/toolkit';
import { readTheme } from '../../lib/storage.ts';

export type ThemeMode = 'light' | 'dark';

/** The remembered choice, else the system's preference (docs/web.md, "Storage": `theme`). */
const initialTheme = (): { mode: ThemeMode } => {
  const stored = readTheme();
  if (stored) return { mode: stored };
  const prefersDark = typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches;
  return { mode: prefersDark ? 'dark' : 'light' };
};

export const themeSlice = createSlice({
  name: 'theme',
  initialState: initialTheme,
  reducers: {
    themeToggled: (state) => {
      state.mode = state.mode === 'dark' ? 'light' : 'dark';
    },
  },
  selectors: {
    selectThemeMode: (state) => state.mode,
  },
});

export const { themeToggled } = themeSlice.actions;
export const { selectThemeMode } = themeSlice.selectors;
