import { useEffect, useId, useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';

interface PictureInputProps {
  label: string;
  file: File | null;
  /** Receives the chosen file, or null when it is not an image (the caller decides what to say). */
  onChange: (file: File | null, rejected: boolean) => void;
  error?: string | undefined;
}

export const isImageFile = (file: File): boolean => file.type.startsWith('image/');

/** An optional picture chooser that shows a preview and the file name. */
export const PictureInput = ({ label, file, onChange, error }: PictureInputProps) => {
  const id = useId();
  const [preview, setPreview] = useState<string | null>(null);
  const { t } = useTranslation();

  useEffect(() => {
    if (!file) {
      setPreview(null);
      return;
    }
    const url = URL.createObjectURL(file);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [file]);

  const choose = (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = event.target.files?.[0] ?? null;
    if (chosen && !isImageFile(chosen)) {
      event.target.value = '';
      onChange(null, true);
      return;
    }
    onChange(chosen, false);
  };

  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <div className="picture-input">
        {preview && <img className="picture-input__preview" src={preview} alt={t('avatar.preview')} />}
        <input
          id={id}
          className="field__input"
          type="file"
          accept="image/*"
          onChange={choose}
          aria-describedby={error ? `${id}-error` : undefined}
        />
      </div>
      {file && <p className="picture-input__name">{file.name}</p>}
      {error && (
        <p id={`${id}-error`} className="field__error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
};
