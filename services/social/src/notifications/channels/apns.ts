import apn from '@parse/node-apn';
import { pushPayload, type Device, type Notification, type PushChannel, type PushOutcome } from '../notification.js';

export interface ApnsConfig {
  /** The .p8 signing key (PEM) of a provider token, its key id and the team id. */
  key: string;
  keyId: string;
  teamId: string;
  /** The app's bundle id: the notification's topic. */
  bundleId: string;
  production: boolean;
  /** host:port of another APNs (a stand-in); Apple's own unless set. */
  address?: string;
  /** PEM certificates trusted for that address (a stand-in's own). */
  ca?: string;
}

/** What APNs answers for a token that no longer reaches an app on a device. */
const GONE_REASONS = new Set(['Unregistered', 'BadDeviceToken', 'DeviceTokenNotForTopic', 'ExpiredToken']);

/**
 * iPhones through APNs' HTTP/2 API (@parse/node-apn, token-based
 * authentication): a token APNs answers 410 Unregistered or 400
 * BadDeviceToken for is gone.
 */
export class ApnsChannel implements PushChannel<Extract<Device, { type: 'android' | 'ios' }>> {
  readonly name = 'apns';
  private readonly provider: apn.Provider;

  constructor(private readonly config: ApnsConfig) {
    const [host, port] = config.address ? config.address.split(':') : [];
    this.provider = new apn.Provider({
      token: { key: config.key, keyId: config.keyId, teamId: config.teamId },
      production: config.production,
      ...(host ? { address: host, port: Number(port || 443) } : {}),
      ...(config.ca ? { ca: [config.ca] } : {}),
    });
  }

  async send(device: Extract<Device, { type: 'android' | 'ios' }>, notification: Notification): Promise<PushOutcome> {
    const note = new apn.Notification();
    note.topic = this.config.bundleId;
    note.id = notification.id;
    note.expiry = Math.floor(Date.now() / 1000) + 3600;
    if (notification.silent) {
      note.contentAvailable = true;
      note.priority = 5;
      note.pushType = 'background';
    } else {
      note.alert = { title: notification.title, body: notification.body };
      note.pushType = 'alert';
      note.priority = 10;
    }
    note.payload = { spinroom: pushPayload(notification) };
    const { failed } = await this.provider.send(note, device.token);
    const failure = failed[0];
    if (!failure) return 'sent';
    const reason = failure.response?.reason ?? '';
    if (GONE_REASONS.has(reason) || (Number(failure.status) === 410 && reason === '')) return 'gone';
    throw new Error(`APNs refused the notification: ${failure.status ?? ''} ${reason || failure.error?.message || ''}`.trim());
  }

  async close(): Promise<void> {
    await this.provider.shutdown();
  }
}
