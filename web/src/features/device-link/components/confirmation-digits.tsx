/** The six digits both browsers show, in two groups of three, read out as single digits. */
export const ConfirmationDigits = ({ digits }: { digits: string }) => (
  <p
    className="link-digits"
    data-testid="link-digits"
    aria-label={`Confirmation code ${[...digits].join(' ')}`}
  >
    {digits.slice(0, 3)} {digits.slice(3)}
  </p>
);
