import { createSign } from 'node:crypto';
import { Agent } from 'node:https';
import { connect, type Socket } from 'node:net';
import { deleteApp, initializeApp, type App, type Credential } from 'firebase-admin/app';
import { getMessaging, type Messaging } from 'firebase-admin/messaging';
import { pushPayload, type Device, type Notification, type PushChannel, type PushOutcome } from '../notification.js';

/** The fields of a Google service account key file FCM needs. */
export interface FcmServiceAccount {
  project_id: string;
  client_email: string;
  private_key: string;
  /** Where the OAuth 2.0 token is asked for (Google's: https://oauth2.googleapis.com/token). */
  token_uri: string;
}

const SCOPE = 'https://www.googleapis.com/auth/firebase.messaging';

/**
 * A service account's OAuth 2.0 access token (the JWT bearer grant, RFC 7523),
 * asked of the key file's token_uri: what Google's own libraries do, without
 * their transport, so a stand-in can answer it.
 */
export class ServiceAccountCredential implements Credential {
  constructor(private readonly account: FcmServiceAccount) {}

  async getAccessToken(): Promise<{ access_token: string; expires_in: number }> {
    const now = Math.floor(Date.now() / 1000);
    const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const unsigned = `${encode({ alg: 'RS256', typ: 'JWT' })}.${encode({
      iss: this.account.client_email,
      scope: SCOPE,
      aud: this.account.token_uri,
      iat: now,
      exp: now + 3600,
    })}`;
    const signature = createSign('RSA-SHA256').update(unsigned).sign(this.account.private_key).toString('base64url');
    const response = await fetch(this.account.token_uri, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion: `${unsigned}.${signature}` }),
      signal: AbortSignal.timeout(10_000),
    });
    if (!response.ok) throw new Error(`FCM token endpoint answered ${response.status}`);
    const token = (await response.json()) as { access_token?: string; expires_in?: number };
    if (!token.access_token) throw new Error('FCM token endpoint answered without an access_token');
    return { access_token: token.access_token, expires_in: token.expires_in ?? 3600 };
  }
}

/**
 * Sends FCM's requests (whatever host the SDK names) to one HTTP address: how
 * the channel is pointed at a stand-in of fcm.googleapis.com (FCM_ENDPOINT).
 */
class StandInAgent extends Agent {
  constructor(private readonly target: URL) {
    super({ keepAlive: true });
  }

  override createConnection(): Socket {
    return connect({ host: this.target.hostname, port: Number(this.target.port || 80) });
  }
}

/**
 * Android phones through FCM's HTTP v1 API (firebase-admin's messaging.send):
 * a token FCM reports UNREGISTERED is gone.
 */
export class FcmChannel implements PushChannel<Extract<Device, { type: 'android' | 'ios' }>> {
  readonly name = 'fcm';
  private readonly app: App;
  private readonly messaging: Messaging;

  constructor(account: FcmServiceAccount, options: { endpoint?: string } = {}) {
    this.app = initializeApp(
      {
        credential: new ServiceAccountCredential(account),
        projectId: account.project_id,
        ...(options.endpoint ? { httpAgent: new StandInAgent(new URL(options.endpoint)) } : {}),
      },
      `spinroom-fcm-${Math.random().toString(36).slice(2)}`,
    );
    this.messaging = getMessaging(this.app);
  }

  async send(device: Extract<Device, { type: 'android' | 'ios' }>, notification: Notification): Promise<PushOutcome> {
    const payload = pushPayload(notification);
    const data: Record<string, string> = {
      ...notification.data,
      notificationId: notification.id,
      kind: notification.kind,
      payload: JSON.stringify(payload),
    };
    try {
      await this.messaging.send({
        token: device.token,
        data,
        ...(notification.silent ? {} : { notification: { title: notification.title, body: notification.body } }),
        android: { priority: notification.silent ? 'normal' : 'high' },
      });
      return 'sent';
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === 'messaging/registration-token-not-registered') return 'gone';
      throw error;
    }
  }

  async close(): Promise<void> {
    await deleteApp(this.app);
  }
}
