import { useTranslation } from 'react-i18next';
/** The six digits both browsers show, in two groups of three, read out as single digits. */
export const ConfirmationDigits = ({ digits }: { digits: string }) => {
  const { t } = useTranslation();
  return (
    <p
      className="link-digits"
      data-testid="link-digits"
      aria-label={t('link.digits', { digits: [...digits].join(' ') })}
    >
      {digits.slice(0, 3)} {digits.slice(3)}
    </p>
  );
};
