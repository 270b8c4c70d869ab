import { useTranslation } from 'react-i18next';
import { Avatar } from '../../../components/avatar.tsx';
import type { MentionMember } from './use-mention-picker.ts';

interface MentionPickerProps {
  listId: string;
  options: readonly MentionMember[];
  activeIndex: number;
  optionId: (index: number) => string;
  onPick: (member: MentionMember) => void;
}

/**
 * The members offered after "@", over the text box. The focus stays in the box (a press on an
 * option does not take it), which names the active option (`useMentionPicker`).
 */
export const MentionPicker = ({ listId, options, activeIndex, optionId, onPick }: MentionPickerProps) => {
  const { t } = useTranslation();
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
