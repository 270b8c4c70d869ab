import { useAppDispatch, useAppSelector } from '../../../app/hooks.ts';
import { MoonIcon, SunIcon } from '../../../components/icons.tsx';
import { selectThemeMode, themeToggled } from '../theme.slice.ts';

/** Top-right light/dark switch. */
export const ThemeToggle = () => {
  const mode = useAppSelector(selectThemeMode);
  const dispatch = useAppDispatch();
  const next = mode === 'dark' ? 'light' : 'dark';
  return (
    <button
      type="button"
      className="icon-button theme-toggle"
      aria-label={`Switch to ${next} theme`}
      title={`Switch to ${next} theme`}
      onClick={() => dispatch(themeToggled())}
      data-testid="theme-toggle"
    >
      {mode === 'dark' ? <SunIcon /> : <MoonIcon />}
    </button>
  );
};
