import type { PublicUser } from '@veil/contracts';
import { useTranslation } from 'react-i18next';
import { BlockButton } from '../../../components/block-button.tsx';

/** In place of the composer in a one-to-one chat with someone this account blocked. */
export const BlockedComposer = ({ user }: { user: PublicUser }) => {
  const { t } = useTranslation();
  return (
    <div className="blocked-composer" data-testid="blocked-composer">
      <p>{t('blocking.composer', { name: user.username })}</p>
      <BlockButton user={user} />
    </div>
  );
};
