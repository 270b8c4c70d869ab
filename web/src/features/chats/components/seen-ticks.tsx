import { useTranslation } from 'react-i18next';
import { TickIcon } from '../../../components/icons.tsx';

/** Own messages: one grey tick until seen, then two white ticks (docs/web.md, "Screens": Read ticks). */
export const SeenTicks = ({ seen }: { seen: boolean }) => {
  const { t } = useTranslation();
  return (
    <span
      className={`ticks ${seen ? 'ticks--seen' : 'ticks--sent'}`}
      role="img"
      aria-label={seen ? t('messages.seen') : t('messages.sent')}
      data-testid="ticks"
      data-seen={seen}
    >
      <TickIcon double={seen} />
    </span>
  );
};
