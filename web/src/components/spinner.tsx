/** A small busy indicator; the label is what screen readers hear. */
export const Spinner = ({ label = 'Loading' }: { label?: string }) => (
  <span className="spinner" role="status" aria-label={label} />
);
