import { apiClient } from '../lib/http.js';

export const DEMO_ROOM = { name: 'Spinroom Lounge', slug: 'spinroom-lounge' };

/**
 * Makes the demo room "Spinroom Lounge" (`spinroom-lounge`), owned by the demo
 * admin, through the real REST path. Idempotent: an existing room is kept as it is.
 */
export async function seedDemoRoom(options: { baseUrl: string; email: string; password: string; log: (line: string) => void }) {
  const call = apiClient(options.baseUrl);
  const { accessToken: token } = await call('POST', '/api/user-service/auth/login', undefined, {
    email: options.email,
    password: options.password,
  });
  const existing = await call('GET', `/api/room-service/rooms/${DEMO_ROOM.slug}`, token, undefined, [404]);
  if (existing.uuid) return { slug: existing.slug as string, uuid: existing.uuid as string };
  const room = await call('POST', '/api/room-service/rooms/infrastructure', token, {
    ...DEMO_ROOM,
    description: 'The demo room: take a DJ seat and play the demo songs',
    vibe: 'Everything goes',
    design: 'CLUB',
  });
  options.log(`created the room "${DEMO_ROOM.name}"`);
  return { slug: room.slug as string, uuid: room.uuid as string };
}
