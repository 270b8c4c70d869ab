import { useEffect, useRef } from 'react';
import { useAppSelector } from '../../../app/hooks.ts';
import { storeTheme } from '../../../lib/storage.ts';
import { selectThemeMode } from '../theme.slice.ts';

/**
 * Puts the theme on <html data-theme> and remembers a choice the user made. The first value is
 * not stored: until the user picks, the system preference keeps deciding.
 */
export const useApplyTheme = () => {
  const mode = useAppSelector(selectThemeMode);
  const first = useRef(true);
  useEffect(() => {
    document.documentElement.dataset.theme = mode;
    if (first.current) first.current = false;
    else storeTheme(mode);
  }, [mode]);
};
