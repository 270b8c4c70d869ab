import { useEffect, useRef, type ReactNode, type RefObject } from 'react';

interface ModalDialogProps {
  labelledBy: string;
  /** Escape, or the caller's own buttons. */
  onClose: () => void;
  className?: string;
  children: ReactNode;
}

/**
 * Shows a `<dialog>` as modal while its component is mounted; when it goes, focus returns to
 * the control that opened it (else it would fall to <body>, and a keyboard user would start over).
 */
export const useModalDialog = (dialog: RefObject<HTMLDialogElement | null>) => {
  useEffect(() => {
    const element = dialog.current;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (element && !element.open) element.showModal();
    return () => {
      element?.close();
      // The opener may be gone (a menu that closed): then the browser's choice stands.
      if (opener?.isConnected) opener.focus();
    };
  }, [dialog]);
};

/** A modal `<dialog>`: open while mounted, focus kept inside, Escape calls `onClose`. */
export const ModalDialog = ({ labelledBy, onClose, className = 'panel', children }: ModalDialogProps) => {
  const dialog = useRef<HTMLDialogElement>(null);
  useModalDialog(dialog);
  return (
    <dialog
      ref={dialog}
      className={className}
      aria-labelledby={labelledBy}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      {children}
    </dialog>
  );
};
