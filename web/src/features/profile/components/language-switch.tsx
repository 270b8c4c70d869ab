import { useTranslation } from 'react-i18next';
import { chooseLanguage, currentLanguage, languages, type LanguageCode } from '../../../lib/i18n.ts';

/** The profile's "Language" card: the browser's language until one is chosen here, kept in this browser. */
export const LanguageSwitch = () => {
  const { t } = useTranslation();
  const current = currentLanguage();
  return (
    <section className="form profile-card" aria-labelledby="language-title">
      <h2 id="language-title">{t('language.title')}</h2>
      <label className="privacy__choice">
        {t('language.label')}
        <select
          value={current}
          onChange={(event) => void chooseLanguage(event.target.value as LanguageCode)}
          aria-describedby="language-hint"
        >
          {languages.map(({ code, name }) => (
            <option key={code} value={code} lang={code}>
              {name}
            </option>
          ))}
        </select>
      </label>
      <p id="language-hint" className="panel__hint">
        {t('language.hint')}
      </p>
    </section>
  );
};
