import { TickIcon } from '../../../components/icons.tsx';

/** Own messages: one grey tick until seen, then two white ticks (spec section 2). */
export const SeenTicks = ({ seen }: { seen: boolean }) => (
  <span
    className={`ticks ${seen ? 'ticks--seen' : 'ticks--sent'}`}
    role="img"
    aria-label={seen ? 'Seen' : 'Sent'}
    data-testid="ticks"
    data-seen={seen}
  >
    <TickIcon double={seen} />
  </span>
);
