import { useTranslation } from 'react-i18next';
interface FirstMessageSuggestionProps {
  name: string;
  onSend: (text: string) => void;
}

/** An empty one-to-one chat suggests a first message, "Hi {username}", sent with one click. */
export const FirstMessageSuggestion = ({ name, onSend }: FirstMessageSuggestionProps) => {
  const { t } = useTranslation();
  const text = t('messages.firstText', { name });
  return (
    <div className="first-message">
      <p>{t('messages.firstHint')}</p>
      <button type="button" className="button" onClick={() => onSend(text)}>
        {t('messages.firstSend', { text })}
      </button>
    </div>
  );
};
