import { execFileSync } from 'node:child_process';
import { createDecipheriv, createHmac, randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UploadSongVerified } from '@spinroom/contracts/events/v1/upload_events';
import type { Role } from '@spinroom/platform';
import { eventually } from '@spinroom/platform/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FfmpegTranscoder } from '../../services/upload/src/media/transcoder.js';
import { garbage } from '../../services/upload/test/support.js';
import {
  freshEmail,
  signedToken,
  startBffProcess,
  useTopic,
  TEST_UPLOAD_SECRETS,
  usePlatform,
  type TestPlatform,
} from '../support/platform.js';

const work = mkdtempSync(join(tmpdir(), 'spinroom-e2e-audio-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A test tone from ffmpeg's synthesizer, as file bytes. */
function tone(seconds: number, options: { format?: 'mp3' | 'wav'; title?: string; artist?: string } = {}): Buffer {
  const format = options.format ?? 'mp3';
  const path = join(work, `${randomUUID()}.${format}`);
  const tags = [
    ...(options.title ? ['-metadata', `title=${options.title}`] : []),
    ...(options.artist ? ['-metadata', `artist=${options.artist}`] : []),
  ];
  const codec = format === 'mp3' ? ['-c:a', 'libmp3lame', '-b:a', '128k'] : ['-c:a', 'pcm_s16le'];
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`, ...codec, ...tags, path]);
  return readFileSync(path);
}

function ffprobe(path: string): {
  format: { format_name: string; duration: string };
  streams: Array<{ codec_type: string; codec_name: string }>;
} {
  return JSON.parse(
    execFileSync('ffprobe', ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', path], { encoding: 'utf8' }),
  );
}

interface FilePart {
  bytes: Buffer;
  name?: string;
  type?: string;
  field?: string;
}

async function postForm(
  baseUrl: string,
  token: string | undefined,
  file: FilePart | undefined,
  fields: Record<string, string> = {},
): Promise<{ status: number; body: any }> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  if (file) form.append(file.field ?? 'file', new Blob([file.bytes], { type: file.type ?? 'audio/mpeg' }), file.name ?? 'song.mp3');
  const res = await fetch(`${baseUrl}/api/upload-service/upload/song`, {
    method: 'POST',
    headers: token ? { authorization: `Bearer ${token}` } : {},
    body: form,
  });
  return { status: res.status, body: await res.json() };
}

async function fetchBytes(url: string, token?: string) {
  const res = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

const tokenWithRole = (role: Role) => signedToken(role);

function useAccounts(call: ReturnType<typeof usePlatform>['call']) {
  return {
    signUp: async () =>
      (await call('POST', '/api/user-service/users/sign-up', { body: { email: freshEmail(), password: 'correct horse battery' } }))
        .body as { accessToken: string; userUuid: string },
    guest: async () => (await call('GET', '/api/user-service/auth/guest')).body as { accessToken: string; userUuid: string },
  };
}

async function untilStatus(call: ReturnType<typeof usePlatform>['call'], token: string, songId: string, status: string) {
  return eventually(async () => {
    const { body } = await call('GET', `/api/upload-service/songs/${songId}`, { token });
    return body.status === status ? body : undefined;
  }, 30_000);
}

/** What an upload may leave behind after a refusal: nothing. */
async function expectNothingStored(platform: TestPlatform) {
  const db = new pg.Client({ connectionString: platform.upload.databaseUrl });
  await db.connect();
  try {
    expect((await db.query('select count(*)::int as n from "song"')).rows[0].n).toBe(0);
    expect((await db.query('select count(*)::int as n from "transcode_job"')).rows[0].n).toBe(0);
  } finally {
    await db.end();
  }
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(join(dir, entry.name));
      else files.push(join(dir, entry.name));
    }
  };
  walk(platform.upload.storageDir);
  expect(files).toEqual([]);
  const media = readdirSync('/proc').filter((pid) => {
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      return /ff(mpeg|probe)/.test(cmdline) && cmdline.includes(platform.upload.storageDir);
    } catch {
      return false;
    }
  });
  expect(media).toEqual([]);
}

describe('song uploads through the BFF', () => {
  const { call, platform } = usePlatform();
  const accounts = useAccounts(call);

  it('uploads a song, transcodes it off the request path and plays it as AES-128 HLS', async () => {
    const me = await accounts.signUp();
    const uploaded = await postForm(
      platform().baseUrl,
      me.accessToken,
      { bytes: tone(12), name: 'sine.mp3' },
      { trackName: 'Sine', artistName: 'Synth' },
    );
    expect(uploaded).toEqual({ status: 201, body: { songId: expect.stringMatching(/^[0-9a-f-]{36}$/), status: 'VALID_FILE_TYPE' } });
    const { songId } = uploaded.body;

    const song = await untilStatus(call, me.accessToken, songId, 'VERIFIED');
    const playlistPath = `/api/upload-service/songs/${songId}/hls-playlist`;
    expect(song).toMatchObject({
      songId,
      trackName: 'Sine',
      artistName: 'Synth',
      duration: 12,
      genre: null,
      isrc: null,
      explicit: false,
      status: 'VERIFIED',
      musicProviders: { uploadService: songId },
      thumbnails: {},
      streamUrls: { uploadService: playlistPath },
      uploaderUuid: me.userUuid,
      fileName: 'sine.mp3',
      contentType: 'audio/mpeg',
      verifiedAt: expect.any(String),
    });

    const base = platform().baseUrl;
    const playlist = await fetchBytes(`${base}${playlistPath}`, me.accessToken);
    expect(playlist.status).toBe(200);
    expect(playlist.headers.get('content-type')).toBe('application/vnd.apple.mpegurl');
    expect(playlist.headers.get('cache-control')).toBe('private, max-age=60');
    const m3u8 = playlist.bytes.toString('utf8');
    expect(m3u8).toMatch(/^#EXTM3U/);
    expect(m3u8).toContain('#EXT-X-ENDLIST');
    expect(Number(m3u8.match(/#EXT-X-TARGETDURATION:(\d+)/)![1])).toBeLessThanOrEqual(10);
    const key = m3u8.match(/#EXT-X-KEY:METHOD=AES-128,URI="([^"]+)",IV=0x([0-9a-f]{32})/i);
    expect(key).not.toBeNull();
    const [, keyUri, ivHex] = key!;
    expect(keyUri).toMatch(/^\/api\/upload-service\/songs\/hls\/key\?/);
    const segments = m3u8.split('\n').filter((line) => line && !line.startsWith('#'));
    expect(segments.length).toBeGreaterThanOrEqual(2);
    for (const segment of segments) expect(segment).toMatch(new RegExp(`^/api/upload-service/songs/${songId}/hls/segment-\\d{5}\\.ts$`));
    for (const extinf of m3u8.matchAll(/#EXTINF:([\d.]+)/g)) expect(Number(extinf[1])).toBeLessThanOrEqual(10);

    // The HLS player fetches the key and the segments without our bearer token.
    const keyAnswer = await fetchBytes(`${base}${keyUri}`);
    expect(keyAnswer.status).toBe(200);
    expect(keyAnswer.headers.get('content-type')).toBe('application/octet-stream');
    expect(keyAnswer.headers.get('cache-control')).toBe('private, no-store');
    expect(keyAnswer.bytes).toHaveLength(16);

    const clear: Buffer[] = [];
    for (const segment of segments) {
      const answer = await fetchBytes(`${base}${segment}`);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toBe('video/mp2t');
      expect(answer.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(answer.bytes[0]).not.toBe(0x47); // encrypted: no MPEG-TS sync byte in the clear
      const decipher = createDecipheriv('aes-128-cbc', keyAnswer.bytes, Buffer.from(ivHex!, 'hex'));
      const plain = Buffer.concat([decipher.update(answer.bytes), decipher.final()]);
      expect(plain[0]).toBe(0x47);
      clear.push(plain);
    }
    const decrypted = join(work, `${songId}.ts`);
    writeFileSync(decrypted, Buffer.concat(clear));
    const probed = ffprobe(decrypted);
    expect(probed.format.format_name).toBe('mpegts');
    expect(probed.streams.map((s) => `${s.codec_type}/${s.codec_name}`)).toEqual(['audio/aac']);
    expect(Number(probed.format.duration)).toBeGreaterThan(11.5);
    expect(Number(probed.format.duration)).toBeLessThan(12.5);

    // Guests may play (listeners in rooms may be guests); a tampered key link may not.
    const guest = await accounts.guest();
    expect((await fetchBytes(`${base}${playlistPath}`, guest.accessToken)).status).toBe(200);
    expect((await fetchBytes(`${base}${playlistPath}`)).status).toBe(401);
    const tampered = await call('GET', keyUri!.replace(/user=[^&]+/, `user=${guest.userUuid}`));
    expect(tampered).toMatchObject({
      status: 403,
      body: { statusCode: 403, message: 'The key link is invalid or has expired', error: 'Forbidden' },
    });
    expect((await call('GET', `/api/upload-service/songs/${songId}/hls/..%2F..%2Foriginals%2F${songId}`)).status).toBe(404);
  });

  it('answers 403 "Song is not verified" until the song is verified, and only lets the uploader or a moderator edit it', async () => {
    const owner = await accounts.signUp();
    const other = await accounts.signUp();
    const uploaded = await postForm(platform().baseUrl, owner.accessToken, { bytes: tone(4), name: 'untitled.mp3' });
    expect(uploaded.body.status).toBe('MISSING_METADATA');
    const { songId } = uploaded.body;
    const notVerified = { status: 403, body: { statusCode: 403, message: 'Song is not verified', error: 'Forbidden' } };
    expect(await call('GET', `/api/upload-service/songs/${songId}/hls-playlist`, { token: owner.accessToken })).toMatchObject(notVerified);
    expect(await call('GET', `/api/upload-service/songs/${songId}/hls/segment-00000.ts`)).toMatchObject(notVerified);
    // Others do not see it before it is verified.
    expect(await call('GET', `/api/upload-service/songs/${songId}`, { token: other.accessToken })).toMatchObject({
      status: 404,
      body: { message: 'Song not found' },
    });

    const notYours = {
      status: 403,
      body: { statusCode: 403, message: 'Unauthorized to edit tags that not belongs to the user', error: 'Forbidden' },
    };
    expect(
      await call('POST', '/api/upload-service/metadata', { token: other.accessToken, body: { songId, trackName: 'Mine now' } }),
    ).toMatchObject(notYours);
    expect(
      await call('PATCH', `/api/upload-service/songs/${songId}`, { token: other.accessToken, body: { artistName: 'Me' } }),
    ).toMatchObject(notYours);
    expect((await call('POST', '/api/upload-service/metadata', { token: owner.accessToken, body: { songId, trackName: '' } })).status).toBe(
      400,
    );

    const named = await call('POST', '/api/upload-service/metadata', {
      token: owner.accessToken,
      body: { songId, trackName: 'Named', artistName: 'Later', isrc: 'us-rc1-76-07839' },
    });
    expect(named).toMatchObject({ status: 200, body: { trackName: 'Named', artistName: 'Later', isrc: 'USRC17607839' } });
    await untilStatus(call, owner.accessToken, songId, 'VERIFIED');
    const playlist = await call('GET', `/api/upload-service/songs/${songId}/hls-playlist`, { token: other.accessToken });
    expect(playlist.status).toBe(200);
    const keyUri = String(playlist.body).match(/URI="([^"]+)"/)![1]!;

    // A moderator may edit anyone's tags and withdraw a song; the uploader may not un-verify.
    const admin = await tokenWithRole('admin');
    expect(await call('PATCH', `/api/upload-service/songs/${songId}`, { token: admin, body: { genre: 'Drone' } })).toMatchObject({
      status: 200,
      body: { genre: 'Drone' },
    });
    expect(
      await call('PATCH', `/api/upload-service/songs/${songId}`, { token: owner.accessToken, body: { status: 'UNVERIFIED' } }),
    ).toMatchObject({
      status: 403,
      body: { message: 'Only moderators can change whether a song is verified' },
    });
    const moderator = await tokenWithRole('moderator');
    expect(await call('PATCH', `/api/upload-service/songs/${songId}`, { token: moderator, body: { status: 'UNVERIFIED' } })).toMatchObject({
      status: 200,
      body: { status: 'UNVERIFIED' },
    });
    expect(await call('GET', `/api/upload-service/songs/${songId}/hls-playlist`, { token: owner.accessToken })).toMatchObject(notVerified);
    expect(await call('GET', keyUri)).toMatchObject(notVerified);
    expect(await call('PATCH', `/api/upload-service/songs/${songId}`, { token: moderator, body: { status: 'VERIFIED' } })).toMatchObject({
      status: 200,
      body: { status: 'VERIFIED' },
    });
    expect((await fetchBytes(`${platform().baseUrl}${keyUri}`)).bytes).toHaveLength(16);
  });

  it("adds an upload to a crate by the upload's songId once it is verified, and no longer once it is withdrawn", async () => {
    const me = await accounts.signUp();
    const uploaded = await postForm(
      platform().baseUrl,
      me.accessToken,
      { bytes: tone(3), name: 'queued.mp3' },
      { trackName: `Queued ${randomUUID().slice(0, 8)}`, artistName: 'Synth' },
    );
    expect(uploaded.status).toBe(201);
    const { songId } = uploaded.body;
    await untilStatus(call, me.accessToken, songId, 'VERIFIED');
    // The catalogue learns of the verified upload from upload-events.
    const catalogued = await eventually(async () => {
      const answer = await call('GET', `/api/playlist-service/song-data/${songId}/uploadService`, { token: me.accessToken });
      return answer.status === 200 ? answer.body : undefined;
    }, 30_000);
    expect(catalogued.songId).not.toBe(songId); // the catalogue's own id: the upload's is its uploadService id

    const QUEUE = '/api/playlist-service/crate/special/queue/songs';
    const added = await call('POST', QUEUE, { token: me.accessToken, body: { songs: [{ songId }] } });
    expect(added.status).toBe(201);
    expect(added.body.songs).toEqual([
      expect.objectContaining({
        songId: catalogued.songId,
        musicProviders: { uploadService: songId },
        streamUrls: { uploadService: `/api/upload-service/songs/${songId}/hls-playlist` },
        crateSongUuid: expect.any(String),
      }),
    ]);
    const queue = await call('GET', QUEUE, { token: me.accessToken });
    expect(queue.body.songs.map((s: { songId: string }) => s.songId)).toEqual([catalogued.songId]);

    // Withdrawn, the upload is no song to add.
    const moderator = await tokenWithRole('moderator');
    expect((await call('PATCH', `/api/upload-service/songs/${songId}`, { token: moderator, body: { status: 'UNVERIFIED' } })).status).toBe(
      200,
    );
    await eventually(async () => {
      const answer = await call('GET', `/api/playlist-service/song-data/${songId}/uploadService`, { token: me.accessToken });
      return answer.body.status === 'UNVERIFIED' ? true : undefined;
    }, 30_000);
    expect(await call('POST', QUEUE, { token: me.accessToken, body: { songs: [{ songId }] } })).toMatchObject({
      status: 404,
      body: { message: 'Song not found' },
    });
    expect((await call('GET', QUEUE, { token: me.accessToken })).body.songs).toHaveLength(1);
  });

  it("lists the caller's uploads and the public ones, searches them by name, and deletes them with their files", async () => {
    const me = await accounts.signUp();
    const other = await accounts.signUp();
    const base = platform().baseUrl;
    const mine = (await postForm(base, me.accessToken, { bytes: tone(3, { title: 'Aurora Borealis', artist: 'Northern' }) })).body.songId;
    const pending = (await postForm(base, me.accessToken, { bytes: tone(3), name: 'nameless.mp3' })).body.songId;
    const theirs = (
      await postForm(base, other.accessToken, { bytes: tone(3), name: 'theirs.mp3' }, { trackName: 'Aurora Remix', artistName: 'Other' })
    ).body.songId;
    const hidden = (await postForm(base, other.accessToken, { bytes: tone(3), name: 'aurora-draft.mp3' })).body.songId; // MISSING_METADATA
    await untilStatus(call, me.accessToken, mine, 'VERIFIED');
    await untilStatus(call, other.accessToken, theirs, 'VERIFIED');

    const ids = (body: { songs: Array<{ songId: string }> }) => body.songs.map((s) => s.songId);
    const own = await call('GET', '/api/upload-service/songs', { token: me.accessToken });
    expect(own.status).toBe(200);
    expect(ids(own.body).sort()).toEqual([mine, pending].sort());
    expect(own.body.count).toBe(2);
    expect(ids((await call('GET', '/api/upload-service/songs?verified=true', { token: me.accessToken })).body)).toEqual([mine]);
    expect(ids((await call('GET', '/api/upload-service/songs?verified=false', { token: me.accessToken })).body)).toEqual([pending]);
    const publicIds = ids((await call('GET', '/api/upload-service/songs/public?limit=100', { token: me.accessToken })).body);
    expect(publicIds).toEqual(expect.arrayContaining([mine, theirs]));
    expect(publicIds).not.toContain(pending);
    expect(publicIds).not.toContain(hidden);

    const found = await call('GET', '/api/upload-service/search?term=aurora', { token: me.accessToken });
    expect(ids(found.body).sort()).toEqual([mine, theirs].sort());
    expect((await call('GET', '/api/upload-service/search?term=%25', { token: me.accessToken })).body.songs).toEqual([]);
    expect((await call('GET', '/api/upload-service/search?term=', { token: me.accessToken })).status).toBe(400);

    expect(await call('DELETE', `/api/upload-service/songs/${mine}`, { token: other.accessToken })).toMatchObject({
      status: 403,
      body: { message: 'Unauthorized to delete a song that not belongs to the user' },
    });
    expect(await call('DELETE', `/api/upload-service/songs/${mine}`, { token: me.accessToken })).toMatchObject({
      status: 200,
      body: { songId: mine, deleted: true },
    });
    expect((await call('GET', `/api/upload-service/songs/${mine}`, { token: me.accessToken })).status).toBe(404);
    expect((await call('GET', `/api/upload-service/songs/${mine}/hls-playlist`, { token: me.accessToken })).status).toBe(404);
    const leftovers = readdirSync(join(platform().upload.storageDir, 'objects', 'originals'));
    expect(leftovers).not.toContain(mine);
    expect(readdirSync(join(platform().upload.storageDir, 'objects', 'hls'))).not.toContain(mine);
  });

  it('documents the upload paths in the OpenAPI document', async () => {
    const { body } = await call('GET', '/api/openapi.json');
    const upload = body.paths['/api/upload-service/upload/song'].post;
    expect(upload.requestBody.content['multipart/form-data'].schema.$ref).toBe('#/components/schemas/SongUploadForm');
    expect(upload.responses['201'].content['application/json'].schema.$ref).toBe('#/components/schemas/SongUploaded');
    expect(Object.keys(upload.responses)).toEqual(expect.arrayContaining(['201', '400', '401', '403', '413', '415']));
    expect(body.paths['/api/upload-service/songs/{id}/hls-playlist'].get.responses['200'].content).toHaveProperty([
      'application/vnd.apple.mpegurl',
    ]);
    expect(body.paths['/api/upload-service/songs/hls/key'].get.security).toEqual([]);
    for (const path of [
      '/songs/public',
      '/songs',
      '/songs/{id}',
      '/search',
      '/metadata',
      '/upload/transcoder_sns',
      '/songs/{id}/hls/{segment}',
    ]) {
      expect(body.paths).toHaveProperty([`/api/upload-service${path}`]);
    }
  });
});

describe('bad uploads through the BFF', () => {
  const { call, platform } = usePlatform({ upload: { UPLOAD_MAX_BYTES: 1024 * 1024 } });
  const accounts = useAccounts(call);
  let token: string;
  beforeAll(async () => {
    token = (await accounts.signUp()).accessToken;
  });

  const refusals: Array<[string, () => FilePart | undefined, Record<string, string>, number, string]> = [
    [
      'a text file declared as text',
      () => ({ bytes: Buffer.from('hello'), name: 'notes.txt', type: 'text/plain' }),
      {},
      415,
      'Unsupported file type text/plain; upload MP3, M4A/AAC, WAV, FLAC, OGG/Opus, AIFF or WebM audio',
    ],
    [
      'a video type',
      () => ({ bytes: Buffer.from('....'), name: 'clip.mp4', type: 'video/mp4' }),
      {},
      415,
      'Unsupported file type video/mp4; upload MP3, M4A/AAC, WAV, FLAC, OGG/Opus, AIFF or WebM audio',
    ],
    [
      'text posing as MP3',
      () => ({ bytes: Buffer.from('this is not audio at all\n'.repeat(40)) }),
      {},
      415,
      'The file is not an audio file',
    ],
    [
      'a PNG posing as MP3',
      () => ({ bytes: Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex') }),
      {},
      415,
      'The file is not an audio file',
    ],
    // A real MP3's first frames, then garbage: ffprobe is satisfied, decoding is not.
    [
      'a damaged MP3',
      () => ({ bytes: Buffer.concat([tone(3).subarray(0, 2048), garbage(60_000)]) }),
      {},
      400,
      'The audio file is corrupt or truncated',
    ],
    ['an empty file', () => ({ bytes: Buffer.alloc(0) }), {}, 400, 'The file is empty'],
    [
      'a WAV declared as MP3',
      () => ({ bytes: tone(1, { format: 'wav' }) }),
      {},
      415,
      "The file's content (WAV) does not match its type audio/mpeg",
    ],
    ['no file', () => undefined, { trackName: 'x' }, 400, 'A file is required in the form field "file"'],
    [
      'the file in another field',
      () => ({ bytes: tone(1), field: 'song' }),
      {},
      400,
      'Unexpected file field "song"; send the audio in the field "file"',
    ],
    ['a file over the limit', () => ({ bytes: tone(12, { format: 'wav' }) }), {}, 413, 'The file is larger than the 1 MB upload limit'],
    ['an empty track name', () => ({ bytes: tone(1) }), { trackName: ' ' }, 400, 'trackName must not be empty'],
  ];

  for (const [label, file, fields, status, message] of refusals) {
    it(`refuses ${label} (${status}) and keeps nothing`, async () => {
      const answer = await postForm(platform().baseUrl, token, file(), fields);
      expect(answer).toEqual({ status, body: { statusCode: status, message, error: expect.any(String) } });
      await expectNothingStored(platform());
    });
  }

  it('enforces the limit while streaming when the size is not declared (chunked), and keeps nothing', async () => {
    const boundary = `----spinroom${randomUUID()}`;
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.wav"\r\nContent-Type: audio/wav\r\n\r\n`,
    );
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const body = Buffer.concat([head, tone(12, { format: 'wav' }), tail]);
    const stream = new ReadableStream({
      start(controller) {
        for (let i = 0; i < body.length; i += 64 * 1024) controller.enqueue(body.subarray(i, i + 64 * 1024));
        controller.close();
      },
    });
    const res = await fetch(`${platform().baseUrl}/api/upload-service/upload/song`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
      body: stream,
      duplex: 'half',
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({
      statusCode: 413,
      message: 'The file is larger than the 1 MB upload limit',
      error: 'Payload Too Large',
    });
    await expectNothingStored(platform());
  });

  it('refuses a body that is not multipart, callers without a token, and guests', async () => {
    expect(await call('POST', '/api/upload-service/upload/song', { token, body: { file: 'x' } })).toMatchObject({
      status: 415,
      body: { message: 'Expected a multipart/form-data body with the audio file in the field "file"' },
    });
    expect((await postForm(platform().baseUrl, undefined, { bytes: tone(1) })).status).toBe(401);
    // A stray file part first, then the real one: refused, and the rest of the form is still read through.
    const form = new FormData();
    form.append('cover', new Blob([Buffer.alloc(10_000)], { type: 'image/png' }), 'cover.png');
    form.append('file', new Blob([tone(2)], { type: 'audio/mpeg' }), 'song.mp3');
    const stray = await fetch(`${platform().baseUrl}/api/upload-service/upload/song`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    expect(stray.status).toBe(400);
    expect(((await stray.json()) as { message: string }).message).toBe('Unexpected file field "cover"; send the audio in the field "file"');
    const two = new FormData();
    two.append('file', new Blob([tone(1)], { type: 'audio/mpeg' }), 'a.mp3');
    two.append('file', new Blob([tone(1)], { type: 'audio/mpeg' }), 'b.mp3');
    const twice = await fetch(`${platform().baseUrl}/api/upload-service/upload/song`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: two,
    });
    expect(twice.status).toBe(400);
    expect(((await twice.json()) as { message: string }).message).toBe('Only one file can be uploaded at a time');
    const guest = await accounts.guest();
    expect(await postForm(platform().baseUrl, guest.accessToken, { bytes: tone(1) })).toEqual({
      status: 403,
      body: { statusCode: 403, message: 'Guests cannot upload songs', error: 'Forbidden' },
    });
    await expectNothingStored(platform());
  });

  it('answers broken forms with a 400 and the BFF process lives on (busboy errors once per bad part)', async () => {
    // Its own BFF process: an unhandled error would end it, as it would in production.
    const bff = await startBffProcess(platform());
    try {
      const boundary = `----spinroom${randomUUID()}`;
      const send = async (body: string) => {
        const res = await fetch(`${bff.url}/api/upload-service/upload/song`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
          body,
        });
        return { status: res.status, body: await res.json() };
      };
      const malformed = { status: 400, body: { statusCode: 400, message: 'Malformed multipart/form-data body', error: 'Bad Request' } };
      // Control bytes in several parts' names: one parser error per part.
      const badNames = [1, 2, 3, 4]
        .map((i) => `--${boundary}\r\nContent-Disposition: form-data; name="field\x01${i}"\r\n\r\nvalue\r\n`)
        .join('');
      expect(await send(`${badNames}--${boundary}--\r\n`)).toEqual(malformed);
      // A stray file part the form ends inside: busboy errors the parser and that file's stream.
      expect(
        await send(`--${boundary}\r\nContent-Disposition: form-data; name="cover"; filename="c.png"\r\nContent-Type: image/png\r\n\r\nabc`),
      ).toEqual(malformed);
      // The same, inside the audio file itself.
      expect(
        await send(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="s.mp3"\r\nContent-Type: audio/mpeg\r\n\r\nabc`),
      ).toEqual(malformed);

      expect((await fetch(`${bff.url}/healthz`)).status).toBe(200);
      const session = await fetch(`${bff.url}/api/user-service/auth/session`, { headers: { authorization: `Bearer ${token}` } });
      expect(session.status).toBe(200);
      expect(bff.process.child.exitCode).toBeNull();
      await expectNothingStored(platform());
    } finally {
      await bff.stop();
    }
  }, 90_000);
});

describe('an external transcoder reporting through POST /upload/transcoder_sns', () => {
  // No in-process worker: the test plays the external transcoder.
  const { call, platform } = usePlatform({ upload: { TRANSCODE_CONCURRENCY: 0 } });
  const accounts = useAccounts(call);
  const seen = useTopic('upload-events');

  const notify = (body: string, options: { secret?: string; timestamp?: number } = {}) => {
    const timestamp = String(options.timestamp ?? Math.floor(Date.now() / 1000));
    const signature = `sha256=${createHmac('sha256', options.secret ?? TEST_UPLOAD_SECRETS.TRANSCODER_CALLBACK_SECRET)
      .update(`${timestamp}.${body}`)
      .digest('hex')}`;
    return call('POST', '/api/upload-service/upload/transcoder_sns', {
      rawBody: body,
      headers: { 'content-type': 'text/plain; charset=UTF-8', 'x-transcoder-timestamp': timestamp, 'x-transcoder-signature': signature },
    });
  };

  /** What the external transcoder does: HLS with the song's key, written to the shared object store. */
  async function transcodeExternally(songId: string) {
    const db = new pg.Client({ connectionString: platform().upload.databaseUrl });
    await db.connect();
    const { rows } = await db.query('select "hls_key", "hls_iv" from "song" where "id" = $1', [songId]);
    await db.end();
    const scratch = mkdtempSync(join(tmpdir(), 'external-transcoder-'));
    await new FfmpegTranscoder().transcode({
      inputPath: join(platform().upload.storageDir, 'objects', 'originals', songId),
      outputDir: join(scratch, 'out'),
      secretsDir: join(scratch, 'secrets'),
      key: rows[0].hls_key,
      iv: rows[0].hls_iv,
    });
    const target = join(platform().upload.storageDir, 'objects', 'hls', songId);
    mkdirSync(target, { recursive: true });
    for (const name of readdirSync(join(scratch, 'out'))) copyFileSync(join(scratch, 'out', name), join(target, name));
    rmSync(scratch, { recursive: true, force: true });
  }

  it('authenticates the notice, records completion once, and ignores repeats', async () => {
    const me = await accounts.signUp();
    const { songId, status } = (
      await postForm(platform().baseUrl, me.accessToken, { bytes: tone(5, { title: 'External', artist: 'Worker' }) })
    ).body;
    expect(status).toBe('VALID_FILE_TYPE');
    const complete = JSON.stringify({ songId, status: 'COMPLETE' });

    const unauthorized = {
      status: 401,
      body: { statusCode: 401, message: 'Invalid transcoder notification signature', error: 'Unauthorized' },
    };
    expect(await call('POST', '/api/upload-service/upload/transcoder_sns', { rawBody: complete })).toMatchObject(unauthorized);
    expect(await notify(complete, { secret: 'x'.repeat(40) })).toMatchObject(unauthorized);
    expect(await notify(complete, { timestamp: Math.floor(Date.now() / 1000) - 3600 })).toMatchObject(unauthorized);
    expect(await notify('{"songId": 1}')).toMatchObject({ status: 400, body: { message: 'Malformed transcoder notification' } });
    expect(await notify(JSON.stringify({ songId: randomUUID(), status: 'COMPLETE' }))).toMatchObject({ status: 404 });
    // Completion claimed before any output exists.
    expect(await notify(complete)).toMatchObject({ status: 409, body: { message: 'No transcoded output was found for this song' } });

    await transcodeExternally(songId);
    expect(await notify(complete)).toMatchObject({ status: 200, body: { songId, status: 'VERIFIED', changed: true } });
    // SNS delivers at least once: the same notice again, or a late error, changes nothing.
    const envelope = JSON.stringify({ Type: 'Notification', MessageId: randomUUID(), Message: complete });
    expect(await notify(envelope)).toMatchObject({ status: 200, body: { songId, status: 'VERIFIED', changed: false } });
    expect(await notify(JSON.stringify({ songId, status: 'ERROR', error: 'late' }))).toMatchObject({
      status: 200,
      body: { status: 'VERIFIED', changed: false },
    });

    expect((await call('GET', `/api/upload-service/songs/${songId}/hls-playlist`, { token: me.accessToken })).status).toBe(200);
    const verified = await eventually(async () => seen.find((m) => m.key === songId), 20_000);
    expect(UploadSongVerified.decode(verified.value)).toMatchObject({
      songId,
      trackName: 'External',
      artistName: 'Worker',
      durationSeconds: 5,
    });
    await new Promise((r) => setTimeout(r, 1_500));
    expect(seen.filter((m) => m.key === songId).map((m) => m.headers['event-type'])).toEqual(['upload.song-verified']);
  });

  it('records a failure reported by the transcoder as VERIFICATION_ERROR', async () => {
    const me = await accounts.signUp();
    const { songId } = (await postForm(platform().baseUrl, me.accessToken, { bytes: tone(2, { title: 'Broken', artist: 'Worker' }) })).body;
    expect(await notify(JSON.stringify({ songId, status: 'ERROR', error: 'codec exploded' }))).toMatchObject({
      status: 200,
      body: { songId, status: 'VERIFICATION_ERROR', changed: true },
    });
    expect((await call('GET', `/api/upload-service/songs/${songId}`, { token: me.accessToken })).body.status).toBe('VERIFICATION_ERROR');
  });
});
