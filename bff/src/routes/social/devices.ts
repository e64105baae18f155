import { DeviceType } from '@spinroom/contracts/social/v1/social_service';
import { z } from 'zod';
import { route, type RouteDeps } from '../../http/route.js';
import type { SocialClient } from './clients.js';
import { BASE, Deleted, DeviceSchema } from './schemas.js';
import { deviceJson } from './views.js';

const PATH = `${BASE}/devices`;
const TYPES = { ios: DeviceType.DEVICE_TYPE_IOS, android: DeviceType.DEVICE_TYPE_ANDROID, web: DeviceType.DEVICE_TYPE_WEB };
const Token = z.string().min(1).max(2048);
const Pair = z.object({ userUuid: z.uuid(), token: Token });

/**
 * Devices (spec 001: POST /devices; DELETE /devices/{token}; DELETE
 * /devices/{userUuid}/{token}; GET /devices/single-device/{userUuid}/{token};
 * GET /devices/all-devices/{userUuid}): where a user's notifications go. A
 * path naming a user is the user's own, an admin's or a service's.
 */
export function deviceRoutes(deps: RouteDeps, social: SocialClient): void {
  const tags = ['devices'];

  route(deps, {
    method: 'post',
    path: PATH,
    summary:
      "Registers the caller's device: an ios or android push token, or a web browser's Web Push subscription (token: its endpoint, with keys p256dh and auth). A token registered before moves to the caller",
    tags,
    status: 201,
    body: z
      .object({
        token: Token.openapi({ description: "The FCM or APNs token; for web, the subscription's endpoint" }),
        type: z.enum(['ios', 'android', 'web']),
        keys: z
          .object({ p256dh: z.string().min(1).max(256), auth: z.string().min(1).max(128) })
          .optional()
          .openapi({ description: "web: the subscription's keys (PushSubscription.toJSON().keys)" }),
      })
      .openapi('DeviceRegistration'),
    response: DeviceSchema,
    errors: [403],
    handler: async ({ body }) =>
      deviceJson(
        (
          await social.registerDevice({
            token: body.token,
            type: TYPES[body.type],
            webPushP256dh: body.keys?.p256dh ?? '',
            webPushAuth: body.keys?.auth ?? '',
          })
        ).device,
      ),
  });

  route(deps, {
    method: 'delete',
    path: `${PATH}/{token}`,
    summary: "Removes the caller's device with this token (admins and services: anyone's); 404 'Device not found'",
    tags,
    params: z.object({ token: Token }),
    response: Deleted,
    errors: [404],
    handler: async ({ params }) => {
      await social.deleteDevice({ token: params.token });
      return {};
    },
  });

  route(deps, {
    method: 'delete',
    path: `${PATH}/{userUuid}/{token}`,
    summary: "Removes a user's device by the pair (user, token): the user, admins and services; 404 'Device not found'",
    tags,
    params: Pair,
    response: Deleted,
    errors: [403, 404],
    handler: async ({ params }) => {
      await social.deleteUserDevice(params);
      return {};
    },
  });

  route(deps, {
    method: 'get',
    path: `${PATH}/single-device/{userUuid}/{token}`,
    summary: "A user's device by the pair (user, token): the user, admins and services; 404 'Device not found'",
    tags,
    params: Pair,
    response: DeviceSchema,
    errors: [403, 404],
    handler: async ({ params }) => deviceJson((await social.getUserDevice(params)).device),
  });

  route(deps, {
    method: 'get',
    path: `${PATH}/all-devices/{userUuid}`,
    summary: "A user's devices, newest first: the user, admins and services",
    tags,
    params: z.object({ userUuid: z.uuid() }),
    response: z.array(DeviceSchema).openapi('DeviceList'),
    errors: [403],
    handler: async ({ params }) => (await social.listUserDevices({ userUuid: params.userUuid })).devices.map(deviceJson),
  });
}
