import { useEffect, useRef, type ReactNode } from 'react';

interface ModalDialogProps {
  labelledBy: string;
  /** Escape, or the caller's own buttons. */
  onClose: () => void;
  className?: string;
  children: ReactNode;
}

/** A modal `<dialog>`: open while mounted, focus kept inside, Escape calls `onClose`. */
export const ModalDialog = ({ labelledBy, onClose, className = 'panel', children }: ModalDialogProps) => {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    return () => element?.close();
  }, []);
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
