import { useState } from 'react';
import { useAppDispatch, useAppSelector } from '../../../app/hooks.ts';
import { selectCurrentUser } from '../../../lib/session.slice.ts';
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
  if (!me) return null;

  const toggle = async () => {
    setNote('');
    if (settings.enabled) {
      await saveNotificationSettings(me._id, { ...settings, enabled: false });
      return unsubscribeFromPush(dispatch);
    }
    const permission = await Notification.requestPermission();
    if (permission !== 'granted') {
      setNote(
        'This browser blocks notifications from Veil: allow them in its site settings, then try again.',
      );
      return;
    }
    await saveNotificationSettings(me._id, { ...settings, enabled: true });
    try {
      await subscribeToPush(dispatch);
    } catch (error) {
      console.warn('Push subscription failed', error);
      setNote('Notifications show while Veil is open in a tab: this browser could not subscribe to pushes.');
    }
  };

  return (
    <section className="profile-card" aria-labelledby="notifications-title">
      <h2 id="notifications-title">Notifications</h2>
      {supported() ? (
        <label className="switch">
          <input type="checkbox" role="switch" checked={settings.enabled} onChange={() => void toggle()} />
          <span>Notify me of new messages while Veil is in the background</span>
        </label>
      ) : (
        <p>This browser cannot show notifications.</p>
      )}
      {note && (
        <p className="form__error" role="alert">
          {note}
        </p>
      )}
      <p className="panel__hint">Mute a chat from its header. These settings belong to this browser.</p>
    </section>
  );
};
