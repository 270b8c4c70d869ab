import { useTranslation } from 'react-i18next';
import { Avatar } from '../../components/avatar.tsx';
import type { useMentionPicker } from './use-mention-picker.ts';

/**
 * The members offered after "@", over the text box, while `picker` is open. The focus stays in
 * the box (a press on an option does not take it), which names the active option.
 */
export const MentionPicker = ({
  picker: { open, listId, options, activeIndex, optionId, pick: onPick },
}: {
  picker: ReturnType<typeof useMentionPicker>;
}) => {
  const { t } = useTranslation();
  if (!open) return null;
  return (
    <ul className="mention-picker" role="listbox" id={listId} aria-label={t('mentions.picker')}>
      {options.map((member, index) => (
        <li
          key={member._id}
          id={optionId(index)}
          role="option"
          aria-selected={index === activeIndex}
          className={`mention-picker__option${index === activeIndex ? ' mention-picker__option--active' : ''}`}
          onMouseDown={(event) => event.preventDefault()}
          onClick={() => onPick(member)}
        >
          <Avatar name={member.username} picture={member.profilePicture ?? null} size="sm" decorative />
          <bdi>{member.username}</bdi>
        </li>
      ))}
    </ul>
  );
};
