interface FirstMessageSuggestionProps {
  name: string;
  onSend: (text: string) => void;
}

/** An empty one-to-one chat suggests the spec's first message, "Hi {username}", sent with one click. */
export const FirstMessageSuggestion = ({ name, onSend }: FirstMessageSuggestionProps) => {
  const text = `Hi ${name}`;
  return (
    <div className="first-message">
      <p>Say hello to start the conversation.</p>
      <button type="button" className="button" onClick={() => onSend(text)}>
        Send “{text}”
      </button>
    </div>
  );
};
