import { useTranslation } from 'react-i18next';
import { Link, useRouteError } from 'react-router';

/**
 * What a route shows instead of a blank page when its code could not be loaded (offline, or a
 * newer version was deployed since this page opened) or it failed while drawing.
 */
export const RouteErrorPage = () => {
  const { t } = useTranslation();
  const error = useRouteError();
  console.error('A page failed', error);
  return (
    <section className="welcome" role="alert">
      <h1>{t('routeError.title')}</h1>
      <p>{t('routeError.body')}</p>
      <button type="button" className="button button--primary" onClick={() => window.location.reload()}>
        {t('routeError.reload')}
      </button>
      <Link to="/">{t('notFound.back')}</Link>
    </section>
  );
};
