import type { GroupNotice } from '@veil/contracts';
import { useTranslation } from 'react-i18next';
import type { VerifiedGroup } from '../../keys/index.ts';
import { noticeCheckOf, type ShownGroup } from '../group-notice-checks.ts';
import { IsolatedSentence } from '../../../components/isolated-sentence.tsx';
import { noticeParts } from '../group-notices.ts';

/**
 * A group's system line: the server's wording when its change verified (or the group has no
 * signed chain), "This change could not be verified" and why otherwise.
 */
export const GroupNoticeLine = ({
  notice,
  group,
  myId,
}: {
  notice: GroupNotice;
  group: ShownGroup | undefined;
  myId: string;
}) => {
  const { t } = useTranslation();
  const check = noticeCheckOf(notice, group);
  return (
    <li
      className={check.ok ? 'system-line' : 'system-line system-line--unverified'}
      data-testid="system-line"
      data-verified={check.ok ? undefined : 'false'}
    >
      {check.ok ? (
        <IsolatedSentence parts={noticeParts(notice, myId)} />
      ) : (
        t('groupChecks.failed', { reason: t(`groupChecks.reasons.${check.problem}`) })
      )}
    </li>
  );
};

/**
 * In a group's info: whether its state is signed, and when its chain starts from an admin's
 * signature of the state it already had, by whom and when.
 */
export const GroupSigningStatus = ({
  group,
  nameOf,
}: {
  group: VerifiedGroup | undefined;
  nameOf: (userId: string) => string;
}) => {
  const { t, i18n } = useTranslation();
  if (!group) return null;
  if (group.status === 'unsigned')
    return (
      <p className="group-info__signing" data-testid="group-signing">
        {t('groupChecks.notSigned')}
      </p>
    );
  if (!group.snapshot) return null;
  const date = new Date(group.snapshot.at).toLocaleDateString(i18n.resolvedLanguage, { dateStyle: 'long' });
  return (
    <p className="group-info__signing" data-testid="group-signing">
      {t('groupChecks.snapshot', { admin: nameOf(group.snapshot.by), date })}
    </p>
  );
};
