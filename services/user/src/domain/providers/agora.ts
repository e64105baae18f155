import { badRequest, forbidden, unavailable, type Caller } from '@spinroom/platform';
import agora from 'agora-token';

export type AgoraRole = 'PUBLISHER' | 'SUBSCRIBER';

/**
 * Agora's rules for a channel name: under 64 bytes of letters, digits, space
 * and these punctuation marks (RtcTokenBuilder's documentation).
 */
const CHANNEL_NAME = /^[A-Za-z0-9 !#$%&()+\-:;<=.>?@[\]^_{}|~,]{1,63}$/;

/**
 * Voice and video tokens (Agora's AccessToken2, "007..."): for the caller's
 * uuid as the user account, on one channel, as PUBLISHER (speaks) or
 * SUBSCRIBER (listens). Guests and services get none.
 */
export class AgoraTokens {
  constructor(private readonly config: { appId?: string; appCertificate?: string; ttlSeconds: number }) {}

  issue(caller: Caller, channelName: string, role: AgoraRole): { token: string; appId: string; uid: string; expiresInSeconds: number } {
    if (caller.role === 'guest' || caller.role === 'service') throw forbidden('Only signed-in users and bots get voice and video tokens');
    const { appId, appCertificate, ttlSeconds } = this.config;
    if (!appId || !appCertificate) throw unavailable('Agora is not configured');
    if (!CHANNEL_NAME.test(channelName)) throw badRequest('channelName must be 1 to 63 letters, digits, spaces or Agora punctuation');
    const agoraRole = role === 'PUBLISHER' ? agora.RtcRole.PUBLISHER : agora.RtcRole.SUBSCRIBER;
    const token = agora.RtcTokenBuilder.buildTokenWithUserAccount(
      appId,
      appCertificate,
      channelName,
      caller.userUuid,
      agoraRole,
      ttlSeconds,
      ttlSeconds,
    );
    return { token, appId, uid: caller.userUuid, expiresInSeconds: ttlSeconds };
  }
}
