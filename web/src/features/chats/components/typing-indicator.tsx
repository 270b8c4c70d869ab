/** "X typing..." while another member types (names joined when several do). */
export const TypingIndicator = ({ names }: { names: string[] }) => (
  <p className="typing-indicator" aria-live="polite" data-testid="typing-indicator">
    {names.length > 0 ? `${names.join(', ')} typing...` : ''}
  </p>
);
