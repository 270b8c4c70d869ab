import { useTranslation } from 'react-i18next';
import { useState } from 'react';
import { useAppDispatch, useAppSelector } from '../../app/hooks.ts';
import { selectCurrentUser } from '../../lib/session.slice.ts';
import { saveNotificationSettings, useNotificationSettings } from './notification-settings.ts';
import { subscribeToPush, unsubscribeFromPush } from './push/push-subscription.ts';

const supported = () => 'Notification' in window;

/**
 * The profile's "Notifications" card: one switch. Turning it on asks the browser's permission
 * (only from this click, never on page load); a refusal is explained, and the switch stays off.
 * On, it also subscribes this browser to pushes, so that messages are shown with Veil closed.
 */
export const NotificationSwitch = () => {
  const me = useAppSelector(selectCurrentUser);
  const settings = useNotificationSettings(me?._id ?? '');
  const dispatch = useAppDispatch();
  const [note, setNote] = useState('');
  const { t } = useTranslation();
  if (!me) return null;

  const toggle = async () => {
    setNote('');
    if (settings.enabled) {
      await saveNotificationSettings(me._id, { ...settings, enabled: false });
      return unsubscribeFromPush(dispatch);
    }
    const permission = await Notification.requestPermission();
    if (permission !== 'granted') {
      setNote(t('notifications.blocked'));
      return;
    }
    await saveNotificationSettings(me._id, { ...settings, enabled: true });
    try {
      await subscribeToPush(dispatch);
    } catch (error) {
      console.warn('Push subscription failed', error);
      setNote(t('notifications.pushUnavailable'));
    }
  };

  return (
    <section className="profile-card" aria-labelledby="notifications-title">
      <h2 id="notifications-title">{t('notifications.title')}</h2>
      {supported() ? (
        <label className="switch">
          <input type="checkbox" role="switch" checked={settings.enabled} onChange={() => void toggle()} />
          <span>{t('notifications.switch')}</span>
        </label>
      ) : (
        <p>{t('notifications.unsupported')}</p>
      )}
      {note && (
        <p className="form__error" role="alert">
          {note}
        </p>
      )}
      <p className="panel__hint">{t('notifications.hint')}</p>
    </section>
  );
};
