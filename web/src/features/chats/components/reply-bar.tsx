import { CloseIcon } from '../../../components/icons.tsx';
import type { DisplayMessage } from '../../../lib/crypto.ts';
import { replyPreview } from '../messages.model.ts';

/** "Replying to:" and the first 30 characters of the chosen message; X clears it. */
export const ReplyBar = ({ message, onClear }: { message: DisplayMessage; onClear: () => void }) => (
  <div className="reply-bar" data-testid="reply-bar">
    <span className="reply-bar__label">Replying to:</span>
    <span className="reply-bar__text">{replyPreview(message.decryptedContent)}</span>
    <button type="button" className="icon-button" aria-label="Cancel reply" onClick={onClear}>
      <CloseIcon />
    </button>
  </div>
);
