import { useTranslation } from 'react-i18next';
import { useAppDispatch, useAppSelector } from '../../../app/hooks.ts';
import { MoonIcon, SunIcon } from '../../../components/icons.tsx';
import { selectThemeMode, themeToggled } from '../theme.slice.ts';

/** Top-right light/dark switch. */
export const ThemeToggle = () => {
  const mode = useAppSelector(selectThemeMode);
  const dispatch = useAppDispatch();
  const { t } = useTranslation();
  const label = mode === 'dark' ? t('theme.toLight') : t('theme.toDark');
  return (
    <button
      type="button"
      className="icon-button theme-toggle"
      aria-label={label}
      title={label}
      onClick={() => dispatch(themeToggled())}
      data-testid="theme-toggle"
    >
      {mode === 'dark' ? <SunIcon /> : <MoonIcon />}
    </button>
  );
};
