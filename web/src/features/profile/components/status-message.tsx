interface StatusMessageProps {
  status: { kind: 'success' | 'error'; text: string; detail?: string } | null;
}

/** A form's outcome: the seed contract's text, plus the server's reason on failure when it gave one. */
export const StatusMessage = ({ status }: StatusMessageProps) =>
  status ? (
    <div className={`status status--${status.kind}`} role={status.kind === 'error' ? 'alert' : 'status'}>
      <p>{status.text}</p>
      {status.detail && status.detail !== status.text && <p className="status__detail">{status.detail}</p>}
    </div>
  ) : null;

export type Status = StatusMessageProps['status'];
