import { useTranslation } from 'react-i18next';
import { useRef } from 'react';
import { PaperclipIcon } from '../../components/icons.tsx';

/** The composer's attach button: any files, several at once. */
export const AttachmentPicker = ({
  onPick,
  disabled,
}: {
  onPick: (files: File[]) => void;
  disabled: boolean;
}) => {
  const input = useRef<HTMLInputElement>(null);
  const { t } = useTranslation();
  return (
    <>
      <button
        type="button"
        className="icon-button composer__attach"
        aria-label={t('files.attach')}
        disabled={disabled}
        onClick={() => input.current?.click()}
      >
        <PaperclipIcon />
      </button>
      <input
        ref={input}
        type="file"
        multiple
        hidden
        data-testid="attachment-input"
        onChange={(event) => {
          onPick([...(event.target.files ?? [])]);
          event.target.value = '';
        }}
      />
    </>
  );
};
