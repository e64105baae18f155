import { z } from 'zod';

const optionalText = () =>
  z
    .string()
    .optional()
    .transform((value) => (value ? value.replace(/\\n/g, '\n') : undefined));

/**
 * Notifications' variables (the social service's config spreads them). A
 * channel without its credentials is off: its devices are not pushed to, and
 * the log says so at start.
 */
export const notificationsConfig = {
  /** A DJ's fans are told once per window that they took the stage (10 minutes). */
  NOTIFICATION_DJ_DIGEST_MINUTES: z.coerce.number().positive().default(10),
  /** Recipients a fan-out writes per transaction. */
  NOTIFICATION_FANOUT_BATCH: z.coerce.number().int().min(1).max(5000).default(500),
  /** How often pending fan-outs are looked for when nothing nudged (ms). */
  NOTIFICATION_FANOUT_POLL_MS: z.coerce.number().int().positive().default(1000),
  /** Web Push's VAPID keys (web-push generate-vapid-keys); Web Push is off without them. */
  VAPID_PUBLIC_KEY: optionalText(),
  VAPID_PRIVATE_KEY: optionalText(),
  /** How push services may reach the sender (mailto: or https:). */
  VAPID_SUBJECT: z.string().default('mailto:notifications@spinroom.invalid'),
  /** Origins whose Web Push endpoints may be plain HTTP: a local push service (web-push-testing), never a browser's. */
  WEB_PUSH_PLAIN_HTTP_ORIGINS: z
    .string()
    .default('')
    .transform((value) =>
      value
        .split(',')
        .map((origin) => origin.trim())
        .filter(Boolean),
    ),
  /**
   * The push services browsers subscribe at (hosts; `*.` matches any
   * subdomain): a Web Push endpoint elsewhere is refused, so the service never
   * posts to an address a client chose.
   */
  WEB_PUSH_ENDPOINT_HOSTS: z
    .string()
    .default('fcm.googleapis.com,updates.push.services.mozilla.com,*.notify.windows.com,web.push.apple.com')
    .transform((value) =>
      value
        .split(',')
        .map((host) => host.trim().toLowerCase())
        .filter(Boolean),
    ),
  /** A Google service account's key file (JSON text) with FCM rights; FCM is off without it. */
  FCM_SERVICE_ACCOUNT_JSON: optionalText(),
  /** Another address for fcm.googleapis.com (an http:// stand-in); Google's own unless set. */
  FCM_ENDPOINT: optionalText(),
  /** APNs provider token: the .p8 key (PEM), its id, the team and the app's bundle id; APNs is off without them. */
  APNS_KEY: optionalText(),
  APNS_KEY_ID: optionalText(),
  APNS_TEAM_ID: optionalText(),
  APNS_BUNDLE_ID: optionalText(),
  /** true: api.push.apple.com; otherwise the sandbox. */
  APNS_PRODUCTION: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true'),
  /** host:port of another APNs (a stand-in), and the PEM certificate it is trusted by. */
  APNS_ADDRESS: optionalText(),
  APNS_CA: optionalText(),
};
