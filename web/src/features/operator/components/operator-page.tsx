import type { ReportView } from '@veil/contracts';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Spinner } from '../../../components/spinner.tsx';
import { errorText } from '../../../lib/api-error.ts';
import { selectCurrentUser } from '../../../lib/session.slice.ts';
import { useAppSelector } from '../../../app/hooks.ts';
import {
  useDismissReportMutation,
  useGetOperatorStatusQuery,
  useGetReportsQuery,
  useGetSuspensionsQuery,
  useSuspendAccountMutation,
  useUnsuspendAccountMutation,
} from '../api/operator.api.ts';

const dateTime = (iso: string, language: string) =>
  new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));

/** One report: who is reported, by whom and why, the verified messages, and what to do. */
const ReportCard = ({ report, users }: { report: ReportView; users: Record<string, string> }) => {
  const { t, i18n } = useTranslation();
  const titleId = useId();
  const [dismiss, dismissing] = useDismissReportMutation();
  const [suspend, suspending] = useSuspendAccountMutation();
  const nameOf = (id: string) => users[id] ?? t('common.formerMember');
  const accused = nameOf(report.accusedId);
  const error = dismissing.error ?? suspending.error;
  const busy = dismissing.isLoading || suspending.isLoading;
  return (
    <article className="panel report-card" aria-labelledby={titleId} data-testid="report">
      <h3 id={titleId}>{t('operator.reportAbout', { accused, reporter: nameOf(report.reporterId) })}</h3>
      <p className="report-card__meta">
        {t(`report.reasons.${report.reason}`)} ·{' '}
        <time dateTime={report.filedAt}>{dateTime(report.filedAt, i18n.resolvedLanguage ?? 'en')}</time>
        {report.status !== 'open' && <> · {t(`operator.status.${report.status}`)}</>}
      </p>
      <p className="report-card__verified">{t('operator.verified')}</p>
      <ol className="report-card__messages">
        {report.messages.map((message) => (
          <li
            key={message.messageId}
            className={message.messageId === report.messageId ? 'report-card__reported' : undefined}
            data-testid="reported-message"
          >
            <span className="report-card__sender">{nameOf(message.senderId)}</span>{' '}
            <span dir="auto">{message.text}</span>
            {message.editedAt && (
              <>
                {' '}
                <span className="report-card__edited" data-testid="reported-edited">
                  {t('operator.edited', {
                    time: dateTime(message.editedAt, i18n.resolvedLanguage ?? 'en'),
                  })}
                </span>
              </>
            )}
          </li>
        ))}
      </ol>
      {error && (
        <p role="alert" className="form__error">
          {errorText(error)}
        </p>
      )}
      {report.status === 'open' && (
        <div className="form__actions">
          <button type="button" className="button" disabled={busy} onClick={() => void dismiss(report._id)}>
            {t('operator.dismiss')}
          </button>
          <button
            type="button"
            className="button button--danger"
            disabled={busy}
            onClick={() => {
              if (window.confirm(t('operator.suspendConfirm', { name: accused })))
                void suspend({ userId: report.accusedId, reportId: report._id });
            }}
          >
            {t('operator.suspend', { name: accused })}
          </button>
        </div>
      )}
    </article>
  );
};

/** The suspended accounts, each with Unsuspend. */
const Suspensions = () => {
  const { t, i18n } = useTranslation();
  const { data, isLoading } = useGetSuspensionsQuery();
  const [unsuspend, { error }] = useUnsuspendAccountMutation();
  if (isLoading) return <Spinner label={t('common.loading')} />;
  const accounts = data?.accounts ?? [];
  return (
    <section aria-labelledby="suspended-title" className="operator__suspended">
      <h2 id="suspended-title">{t('operator.suspendedTitle')}</h2>
      {error && (
        <p role="alert" className="form__error">
          {errorText(error)}
        </p>
      )}
      {accounts.length === 0 ? (
        <p>{t('operator.noneSuspended')}</p>
      ) : (
        <ul className="operator__accounts">
          {accounts.map((account) => (
            <li key={account.userId} data-testid="suspended-account">
              <span>
                {account.username} ·{' '}
                <time dateTime={account.suspendedAt}>
                  {dateTime(account.suspendedAt, i18n.resolvedLanguage ?? 'en')}
                </time>
              </span>
              <button type="button" className="button" onClick={() => void unsuspend(account.userId)}>
                {t('operator.unsuspend', { name: account.username })}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
};

/**
 * /operator: the reports members filed, with the text the server verified, for the operators
 * named in the server's configuration; everyone else is told the page is not theirs.
 */
export const OperatorPage = () => {
  const { t } = useTranslation();
  const me = useAppSelector(selectCurrentUser);
  const { data: role, isLoading: checking } = useGetOperatorStatusQuery(me?._id ?? '', { skip: !me });
  const [status, setStatus] = useState<'open' | 'closed'>('open');
  const { data, isLoading, error } = useGetReportsQuery(status, { skip: !role?.operator });
  if (checking) return <Spinner label={t('common.loading')} />;
  if (!role?.operator)
    return (
      <section className="operator" aria-labelledby="operator-title">
        <h1 id="operator-title">{t('operator.title')}</h1>
        <p>{t('operator.notOperator')}</p>
      </section>
    );
  const reports = data?.reports ?? [];
  return (
    <section className="operator" aria-labelledby="operator-title">
      <header className="page-header">
        <h1 id="operator-title">{t('operator.title')}</h1>
        <div role="group" aria-label={t('operator.show')} className="operator__filter">
          {(['open', 'closed'] as const).map((value) => (
            <button
              key={value}
              type="button"
              className="button"
              aria-pressed={status === value}
              onClick={() => setStatus(value)}
            >
              {t(`operator.${value}`)}
            </button>
          ))}
        </div>
      </header>
      {error && (
        <p role="alert" className="form__error">
          {errorText(error)}
        </p>
      )}
      {isLoading ? (
        <Spinner label={t('common.loading')} />
      ) : reports.length === 0 ? (
        <p>{t(status === 'open' ? 'operator.noOpenReports' : 'operator.noClosedReports')}</p>
      ) : (
        <div className="operator__reports">
          {reports.map((report) => (
            <ReportCard key={report._id} report={report} users={data?.users ?? {}} />
          ))}
        </div>
      )}
      <Suspensions />
    </section>
  );
};
