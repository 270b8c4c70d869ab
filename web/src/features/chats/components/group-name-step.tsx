import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { FormField } from '../../../components/form-field.tsx';

interface GroupNameStepProps {
  name: string;
  onName: (name: string) => void;
  onNext: () => void;
  onClose: () => void;
}

/** Step 1: the group's name; Next only with a name. */
export const GroupNameStep = ({ name, onName, onNext, onClose }: GroupNameStepProps) => {
  const { t } = useTranslation();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (name.trim()) onNext();
  };
  return (
    <form className="form" onSubmit={submit}>
      <FormField
        label={t('groups.name')}
        name="group-name"
        value={name}
        autoFocus
        maxLength={100}
        onChange={(e) => onName(e.target.value)}
      />
      <div className="form__actions">
        <button type="submit" className="button button--primary" disabled={!name.trim()}>
          {t('groups.next')}
        </button>
        <button type="button" className="button" onClick={onClose}>
          {t('common.close')}
        </button>
      </div>
    </form>
  );
};
