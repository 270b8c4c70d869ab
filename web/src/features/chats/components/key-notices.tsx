import type { ChatView } from '@veil/contracts';
import type { KeyLogProblem } from '@veil/crypto';
import type { ContactKeys } from '../../../lib/contact-keys.ts';

interface KeyNoticesProps {
  chat: ChatView;
  keys: ReadonlyMap<string, ContactKeys>;
}

const problemTexts: Record<KeyLogProblem, string> = {
  rewritten: 'their key history was rewritten since this browser last saw it',
  'broken-chain': 'their key history does not hold together',
  'fingerprint-mismatch': 'their key history names keys it does not carry',
  'current-key-mismatch': 'the key the server gives for them is not the last one in their key history',
};

export const keyChangedText = (name: string, at: string) =>
  `${name}'s key changed on ${new Date(at).toLocaleDateString()}`;

/**
 * What the chat says about its members' keys: a red warning when a key log fails its check (the
 * server may have swapped a key), a notice for every key reset, and a verification a key change
 * removed.
 */
export const KeyNotices = ({ chat, keys }: KeyNoticesProps) => {
  const notices = chat.participants.flatMap((member) => {
    const state = keys.get(member._id);
    if (!state || state.kind === 'unavailable') return [];
    if (state.kind === 'warning')
      return [
        <p key={`${member._id}-warning`} className="form__error key-notice key-notice--warning" role="alert">
          Warning: {member.username}&apos;s keys could not be confirmed: {problemTexts[state.problem]}. The
          server may have replaced their key. Do not send anything sensitive until you compare your safety
          number in person.
        </p>,
      ];
    return [
      ...state.resets.map((at) => (
        <p key={`${member._id}-${at}`} className="key-notice" data-testid="key-changed-notice">
          {keyChangedText(member.username, at)}
        </p>
      )),
      ...(state.verificationLostAt
        ? [
            <p key={`${member._id}-unverified`} className="key-notice key-notice--unverified">
              {member.username} is no longer verified: their key changed on{' '}
              {new Date(state.verificationLostAt).toLocaleDateString()}. Compare your safety number again.
            </p>,
          ]
        : []),
    ];
  });
  if (notices.length === 0) return null;
  return (
    <section className="key-notices" aria-label="Key changes">
      {notices}
    </section>
  );
};
