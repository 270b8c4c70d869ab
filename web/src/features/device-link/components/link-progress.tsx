/** A step of the link that is under way: an indeterminate progress bar and what is happening. */
export const LinkProgress = ({ label }: { label: string }) => (
  <p className="restore__progress" role="status">
    <progress aria-label={label} />
    {label}…
  </p>
);
