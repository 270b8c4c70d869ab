import type { ChatView } from '@veil/contracts';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { TimerIcon } from '../../../components/icons.tsx';
import { useSetDisappearingTimerMutation } from '../api/group.api.ts';
import { timerChoices } from '../disappearing.ts';

/**
 * In the chat header: the chat's disappearing-message timer, which any member changes. Messages
 * sent from then on disappear for everyone once it runs out.
 */
export const DisappearingTimerSelect = ({ chat }: { chat: ChatView }) => {
  const { t } = useTranslation();
  const [setTimer, { isLoading, isError, reset }] = useSetDisappearingTimerMutation();
  const errorId = useId();
  const seconds = chat.disappearingSeconds ?? 0;
  return (
    <span className="disappearing-timer">
      <label className="disappearing-timer__label">
        <TimerIcon />
        {/* Shown, not only read out: an icon and "Off" alone say nothing (hidden on a phone). */}
        <span className="disappearing-timer__text">{t('disappearing.label')}</span>
        <select
          className="disappearing-timer__select"
          value={seconds}
          disabled={isLoading}
          aria-describedby={isError ? errorId : undefined}
          data-testid="disappearing-timer"
          onChange={(event) => {
            reset();
            void setTimer({ chatId: chat._id, seconds: Number(event.target.value) });
          }}
        >
          {timerChoices().map((choice) => (
            <option key={choice.seconds} value={choice.seconds}>
              {choice.label}
            </option>
          ))}
        </select>
      </label>
      {isError && (
        <span id={errorId} role="alert" className="form__error disappearing-timer__error">
          {t('disappearing.failed')}
        </span>
      )}
    </span>
  );
};
