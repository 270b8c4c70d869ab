import { LockIcon } from '../../../components/icons.tsx';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DisplayMessage, OrderFlag } from '../../messages/index.ts';
import {
  sealedForAt,
  sealedWrongly,
  type ChatContext,
  sealedForText,
  signatureTexts,
} from '../../keys/index.ts';

interface SealStatusProps {
  message: DisplayMessage;
  context: ChatContext;
  nameOf: (userId: string) => string;
  myId: string;
  /** What the chat's order and replay rules say of it (`orderFlags`); absent: nothing. */
  orderFlag?: OrderFlag | undefined;
}

/** The start of a key-log hash, enough to compare by eye. */
const shortHash = (hash: string | null) => (hash ? hash.slice(0, 12) : '-');

/**
 * Under a message: "Sent before messages were signed" for history from before signatures, and
 * who it was sealed for: on demand, or at once, to everyone, when its key map leaves out a
 * member or names someone who was not one.
 */
export const SealStatus = ({ message, context, nameOf, myId, orderFlag }: SealStatusProps) => {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const listId = useId();
  const status = message.verification?.status;
  if (message.deleted || !status || status === 'failed') return null;
  const sealed = sealedForAt(message, context);
  const wrong = sealedWrongly(sealed);
  const name = (id: string) => (id === myId ? t('common.you') : nameOf(id));
  const names = (ids: readonly string[]) => ids.map(name).join(t('common.listSeparator'));
  const count = sealedForText(sealed.sealed.length - sealed.strangers.length, sealed.members?.length ?? null);
  return (
    <div className="seal-status" data-testid="seal-status">
      {status === 'legacy' && (
        <span className="seal-status__legacy" data-testid="legacy-message">
          {signatureTexts.legacy}
        </span>
      )}
      {orderFlag && (
        <p className="seal-status__warning" role="alert" data-testid="order-flag" data-flag={orderFlag}>
          {t(`signatures.order.${orderFlag}`)}
        </p>
      )}
      {status === 'verified' &&
        message.verification?.status === 'verified' &&
        message.verification.splitViews?.map((view) => (
          <p
            key={view.member}
            className="seal-status__warning"
            role="alert"
            data-testid="split-view"
            data-member={view.member}
          >
            {message.sender._id === myId
              ? t('signatures.splitViewOwn', { member: name(view.member) })
              : view.member === myId
                ? t('signatures.splitViewYou', { sender: nameOf(message.sender._id) })
                : t('signatures.splitView', {
                    sender: nameOf(message.sender._id),
                    member: name(view.member),
                  })}{' '}
            {t('signatures.splitViewDetail', { named: shortHash(view.named), seen: shortHash(view.seen) })}
          </p>
        ))}
      {wrong && (
        <p className="seal-status__warning" role="alert" data-testid="sealed-wrongly">
          {signatureTexts.sealedWrongly}
          {sealed.missing.length > 0 && `. ${signatureTexts.notSealedFor}: ${names(sealed.missing)}`}
          {sealed.strangers.length > 0 && `. ${signatureTexts.notMembers}: ${names(sealed.strangers)}`}
        </p>
      )}
      <button
        type="button"
        className="seal-status__toggle"
        aria-expanded={open}
        aria-controls={listId}
        // A small lock; its name keeps the words ("Sealed for 2 of 2").
        aria-label={count}
        title={count}
        onClick={() => setOpen((was) => !was)}
      >
        <LockIcon />
      </button>
      {open && (
        <div id={listId} className="seal-status__list" data-testid="sealed-for">
          <ul aria-label={signatureTexts.sealedForTitle}>
            {sealed.sealed.map((id) => (
              <li key={id}>{name(id)}</li>
            ))}
          </ul>
          {sealed.members === null && <p>{signatureTexts.membersUnknown}</p>}
        </div>
      )}
    </div>
  );
};
