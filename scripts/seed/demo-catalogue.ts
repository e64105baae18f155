import { join } from 'node:path';
import { apiClient } from '../lib/http.js';
import { generateDemoSongs, songBlob } from './demo-songs.js';

export const DEMO_CRATE_NAME = 'Spinroom demo songs';
const DEMO_CRATE_DESCRIPTION = 'Synthesized songs to DJ with right away';

interface Json {
  [key: string]: any;
}

/**
 * Makes the demo catalogue through the real paths, as the demo admin: songs
 * synthesized by ffmpeg are uploaded, transcoded to HLS and verified, reach the
 * catalogue through upload-events, and are gathered in a public crate anyone
 * can copy into their queue. Idempotent: songs already uploaded are reused.
 */
export async function seedDemoCatalogue(options: {
  baseUrl: string;
  email: string;
  password: string;
  workDir: string;
  log: (line: string) => void;
}) {
  const { baseUrl, log } = options;
  const call = apiClient(baseUrl);

  const { accessToken: token } = await call('POST', '/api/user-service/auth/login', undefined, {
    email: options.email,
    password: options.password,
  });
  const mine = (await call('GET', '/api/upload-service/songs?limit=100', token)).songs as Json[];
  const songs = await generateDemoSongs(join(options.workDir, 'demo-songs'));

  const uploadIds: string[] = [];
  for (const song of songs) {
    const existing = mine.find(
      (s) => s.trackName === song.trackName && s.artistName === song.artistName && s.status !== 'VERIFICATION_ERROR',
    );
    if (existing) {
      uploadIds.push(existing.songId);
      continue;
    }
    const form = new FormData();
    form.append('trackName', song.trackName);
    form.append('artistName', song.artistName);
    form.append('file', songBlob(song), song.file.split('/').pop());
    const { songId } = await call('POST', '/api/upload-service/upload/song', token, form);
    log(`uploaded "${song.trackName}"`);
    uploadIds.push(songId);
  }

  // Wait for each upload to be transcoded and verified, then to reach the catalogue.
  const deadline = Date.now() + 180_000;
  const catalogueIds: string[] = [];
  for (const uploadId of uploadIds) {
    for (;;) {
      if (Date.now() > deadline) throw new Error(`demo song ${uploadId} was not verified in time`);
      const upload = await call('GET', `/api/upload-service/songs/${uploadId}`, token);
      if (upload.status === 'VERIFICATION_ERROR') throw new Error(`demo song ${uploadId} failed to transcode`);
      if (upload.status === 'VERIFIED') {
        const data = await fetch(`${baseUrl}/api/playlist-service/song-data/${uploadId}/uploadService`, {
          headers: { authorization: `Bearer ${token}` },
        });
        if (data.ok) {
          catalogueIds.push(((await data.json()) as Json).songId);
          break;
        }
      }
      await new Promise((r) => setTimeout(r, 500));
    }
  }

  const crates = (await call('GET', '/api/playlist-service/crate/user?limit=100', token)).crates as Json[];
  let crate = crates.find((c) => c.crateName === DEMO_CRATE_NAME);
  crate ??= await call('POST', '/api/playlist-service/crate', token, {
    crateName: DEMO_CRATE_NAME,
    isPublic: true,
    description: DEMO_CRATE_DESCRIPTION,
  });
  // Public, so a new person finds it among the public crates (GET /crate/public) and plays from it.
  if (!crate.isPublic) crate = await call('PATCH', `/api/playlist-service/crate/${crate.crateUuid}`, token, { isPublic: true });
  const inCrate = new Set(
    ((await call('GET', `/api/playlist-service/crate/${crate.crateUuid}/songs?limit=100`, token)).songs as Json[]).map((s) => s.songId),
  );
  const missing = catalogueIds.filter((id) => !inCrate.has(id));
  if (missing.length > 0) {
    await call('POST', `/api/playlist-service/crate/${crate.crateUuid}/songs`, token, {
      songs: missing.map((songId) => ({ songId })),
      append: true,
    });
  }
  return { crateUuid: crate.crateUuid as string, songs: catalogueIds.length };
}
