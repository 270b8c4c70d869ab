import { useTranslation } from 'react-i18next';

/** A small busy indicator; the label is what screen readers hear. */
export const Spinner = ({ label }: { label?: string }) => {
  const { t } = useTranslation();
  return <span className="spinner" role="status" aria-label={label ?? t('common.loading')} />;
};
