// The notification paths of the social service through the BFF
// (services/social/README.md "Notifications"): the VAPID key browsers
// subscribe with, a browser's subscription (spec 002's web-push path), the
// device removed by its token, and the caller's preferences.
import { api } from '../api/client';

const SOCIAL = '/api/social-service';

/** Every kind of notification the social service sends (its preferences answer lists them too). */
import { NOTIFICATION_KINDS, type NotificationKind } from '@spinroom/contracts/notifications';

export { NOTIFICATION_KINDS, type NotificationKind };

export interface QuietHours {
  /** HH:MM, 24-hour. */
  start: string;
  /** HH:MM; before start, the quiet spans midnight. */
  end: string;
  /** An IANA time zone. */
  timeZone: string;
}

export interface NotificationPreferences {
  mutedKinds: NotificationKind[];
  quietHours: QuietHours | null;
}

/** PushSubscription.toJSON(). */
export interface SubscriptionJson {
  endpoint: string;
  expirationTime?: number | null;
  keys: { p256dh: string; auth: string };
}

export const notificationsApi = {
  publicKey: () => api.get<{ publicKey: string }>(`${SOCIAL}/web-notifications/public-key`, { anonymous: true }),
  subscribe: (subscription: SubscriptionJson) =>
    api.post<{ deviceId: string; created: boolean }>(`${SOCIAL}/web-notifications/subscription`, subscription),
  /** The caller's device with this token (a browser's: its endpoint); 404 when it is not theirs. */
  device: (userUuid: string, token: string) =>
    api.get<unknown>(`${SOCIAL}/devices/single-device/${encodeURIComponent(userUuid)}/${encodeURIComponent(token)}`),
  deleteDevice: (token: string) => api.delete<unknown>(`${SOCIAL}/devices/${encodeURIComponent(token)}`),
  preferences: () => api.get<NotificationPreferences & { kinds: string[] }>(`${SOCIAL}/notifications/preferences`),
  savePreferences: (preferences: NotificationPreferences) =>
    api.put<NotificationPreferences>(`${SOCIAL}/notifications/preferences`, preferences),
};
