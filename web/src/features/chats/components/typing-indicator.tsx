import { useTranslation } from 'react-i18next';
/** "X typing..." while another member types (names joined when several do). */
export const TypingIndicator = ({ names }: { names: string[] }) => {
  const { t } = useTranslation();
  // Not a live region: typing comes and goes with every keystroke pause, and a screen reader
  // would read it over the messages themselves (which the message log announces).
  return (
    <p className="typing-indicator" data-testid="typing-indicator">
      {names.length > 0 ? t('messages.typing', { names: names.join(t('common.listSeparator')) }) : ''}
    </p>
  );
};
