import { useTranslation } from 'react-i18next';
import type { ChatView } from '@veil/contracts';
import type { KeyLogProblem } from '@veil/crypto';
import type { ContactKeys } from '../../keys/index.ts';

interface KeyNoticesProps {
  chat: ChatView;
  keys: ReadonlyMap<string, ContactKeys>;
}

const problemKeys = {
  rewritten: 'keys.rewritten',
  'broken-chain': 'keys.brokenChain',
  'fingerprint-mismatch': 'keys.fingerprintMismatch',
  'current-key-mismatch': 'keys.currentKeyMismatch',
  empty: 'keys.empty',
  unsigned: 'keys.unsigned',
  'bad-signature': 'keys.badSignature',
  'forbidden-change': 'keys.forbiddenChange',
  backdated: 'keys.backdated',
  'future-dated': 'keys.futureDated',
} as const satisfies Record<KeyLogProblem, string>;

/**
 * What the chat says about its members' keys: a red warning when a key log fails its check (the
 * server may have swapped a key), a notice when a member's log is not signed by them yet, a notice
 * for every key reset, and a verification a key change removed.
 */
export const KeyNotices = ({ chat, keys }: KeyNoticesProps) => {
  const { t, i18n } = useTranslation();
  const dateOf = (at: string) => new Date(at).toLocaleDateString(i18n.resolvedLanguage);
  const notices = chat.participants.flatMap((member) => {
    const state = keys.get(member._id);
    if (!state || state.kind === 'unavailable') return [];
    // An account whose log its own browser has not signed yet: said plainly, not as an attack.
    if (state.kind === 'warning' && state.problem === 'unsigned')
      return [
        <p key={`${member._id}-unsigned`} className="form__error key-notice key-notice--warning" role="alert">
          {t('keys.notSigned', { name: member.username })}
        </p>,
      ];
    if (state.kind === 'warning')
      return [
        <p key={`${member._id}-warning`} className="form__error key-notice key-notice--warning" role="alert">
          {t('keys.warning', { name: member.username, problem: t(problemKeys[state.problem]) })}
        </p>,
      ];
    return [
      ...state.resets.map((at) => (
        <p key={`${member._id}-${at}`} className="key-notice" data-testid="key-changed-notice">
          {t('keys.changed', { name: member.username, date: dateOf(at) })}
        </p>
      )),
      ...(state.verificationLostAt
        ? [
            <p key={`${member._id}-unverified`} className="key-notice key-notice--unverified">
              {t('keys.unverified', { name: member.username, date: dateOf(state.verificationLostAt) })}
            </p>,
          ]
        : []),
    ];
  });
  if (notices.length === 0) return null;
  return (
    <section className="key-notices" aria-label={t('keys.region')}>
      {notices}
    </section>
  );
};
