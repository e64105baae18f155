import { Agent } from 'node:https';
import { connect, type NetConnectOpts, type Socket } from 'node:net';
import webpush from 'web-push';
import { pushEndpointAllowed, pushPayload, type Device, type Notification, type PushChannel, type PushOutcome } from '../notification.js';

export interface VapidKeys {
  /** A mailto: or https: URL the push services may reach the sender at. */
  subject: string;
  /** The application server key browsers subscribe with (base64url, uncompressed P-256 point). */
  publicKey: string;
  privateKey: string;
}

/** New VAPID keys (for `npm start` and the tests; a deployment sets its own in the environment). */
export function generateVapidKeys(): { publicKey: string; privateKey: string } {
  return webpush.generateVAPIDKeys();
}

/**
 * web-push speaks HTTPS only, as every browser's push service does; a local
 * push service (web-push-testing, for tests and `npm start`) listens on plain
 * HTTP. Its endpoints, allowed by origin (WEB_PUSH_PLAIN_HTTP_ORIGINS), are
 * reached through this agent, which opens a plain connection.
 */
class PlainHttpAgent extends Agent {
  override createConnection(options: NetConnectOpts): Socket {
    const { host, port } = options as { host?: string; port?: number };
    return connect({ host: host ?? 'localhost', port: Number(port ?? 80) });
  }
}

/**
 * Web Push (RFC 8030, 8291, 8292) through the web-push package: the payload
 * encrypted for the subscription's keys, signed with the VAPID keys. The push
 * service's 404 and 410 mean the subscription is gone.
 */
export class WebPushChannel implements PushChannel<Extract<Device, { type: 'web' }>> {
  readonly name = 'web-push';

  constructor(
    private readonly vapid: VapidKeys,
    private readonly options: { ttlSeconds: number; timeoutMs: number; plainHttpOrigins: string[]; hosts: string[] } = {
      ttlSeconds: 3600,
      timeoutMs: 10_000,
      plainHttpOrigins: [],
      hosts: [],
    },
  ) {}

  private readonly plainHttp = new PlainHttpAgent({ keepAlive: true });

  async send(device: Extract<Device, { type: 'web' }>, notification: Notification): Promise<PushOutcome> {
    if (!pushEndpointAllowed(device.endpoint, { hosts: this.options.hosts, plainHttpOrigins: this.options.plainHttpOrigins })) {
      throw new Error(`push endpoint not allowed: ${device.endpoint.slice(0, 100)}`);
    }
    const plain = device.endpoint.startsWith('http:');
    try {
      await webpush.sendNotification(
        { endpoint: device.endpoint, keys: { p256dh: device.p256dh, auth: device.auth } },
        JSON.stringify(pushPayload(notification)),
        {
          vapidDetails: this.vapid,
          TTL: this.options.ttlSeconds,
          timeout: this.options.timeoutMs,
          urgency: notification.silent ? 'low' : 'normal',
          ...(plain ? { agent: this.plainHttp } : {}),
        },
      );
      return 'sent';
    } catch (error) {
      if (error instanceof webpush.WebPushError && (error.statusCode === 404 || error.statusCode === 410)) return 'gone';
      throw error;
    }
  }

  async close(): Promise<void> {
    this.plainHttp.destroy();
  }
}
