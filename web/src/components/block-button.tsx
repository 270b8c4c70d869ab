import type { PublicUser } from '@veil/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../lib/api-error.ts';
import { useBlocked, useSetBlockedMutation } from '../lib/blocks.api.ts';

/**
 * Blocks or unblocks one user (docs/web.md, "Blocking"), wherever that user is shown: a chat's
 * header, the Users page, the blocked list.
 */
export const BlockButton = ({ user, className = '' }: { user: PublicUser; className?: string }) => {
  const blocked = useBlocked(user._id);
  const [setBlocked, { isLoading }] = useSetBlockedMutation();
  const [failure, setFailure] = useState<string | null>(null);
  const { t } = useTranslation();
  const toggle = async () => {
    setFailure(null);
    try {
      await setBlocked({ userId: user._id, blocked: !blocked }).unwrap();
    } catch (error) {
      setFailure(errorText(error) || t('blocking.failed'));
    }
  };
  return (
    <>
      <button
        type="button"
        className={`button block-button ${className}`.trim()}
        disabled={isLoading}
        onClick={() => void toggle()}
      >
        {blocked
          ? t('blocking.unblockName', { name: user.username })
          : t('blocking.blockName', { name: user.username })}
      </button>
      {failure && (
        <span className="form__error" role="alert">
          {failure}
        </span>
      )}
    </>
  );
};
