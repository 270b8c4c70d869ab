import { useState } from 'react';
import { useAppSelector } from '../../../app/hooks.ts';
import { selectCurrentUser } from '../../../lib/session.slice.ts';
import { saveNotificationSettings, useNotificationSettings } from './notification-settings.ts';

const supported = () => 'Notification' in window;

/**
 * The profile's "Notifications" card: one switch. Turning it on asks the browser's permission
 * (only from this click, never on page load); a refusal is explained, and the switch stays off.
 */
export const NotificationSwitch = () => {
  const me = useAppSelector(selectCurrentUser);
  const settings = useNotificationSettings(me?._id ?? '');
  const [note, setNote] = useState('');
  if (!me) return null;

  const toggle = async () => {
    setNote('');
    if (settings.enabled) return saveNotificationSettings(me._id, { ...settings, enabled: false });
    const permission = await Notification.requestPermission();
    if (permission !== 'granted') {
      setNote(
        'This browser blocks notifications from Veil: allow them in its site settings, then try again.',
      );
      return;
    }
    await saveNotificationSettings(me._id, { ...settings, enabled: true });
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
