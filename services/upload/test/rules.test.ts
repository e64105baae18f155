import type { Caller } from '@spinroom/platform';
import { describe, expect, it } from 'vitest';
import { checkProbe, familyOf, type ProbeResult } from '../src/domain/audio-files.js';
import { KeyTokens, playlistDurationMs, rewritePlaylist } from '../src/domain/hls.js';
import {
  changeSong,
  checkCanEditTags,
  checkCanSee,
  checkTagEdit,
  deriveStatus,
  mergeTags,
  tagsFromFile,
  type Song,
  type TranscodeState,
} from '../src/domain/song.js';
import { afterFailure, readNotification, signNotification } from '../src/domain/transcoding.js';

const OWNER = '11111111-1111-4111-8111-111111111111';
const OTHER = '22222222-2222-4222-8222-222222222222';
const SONG_ID = '33333333-3333-4333-8333-333333333333';

function caller(userUuid: string, role: Caller['role'] = 'user'): Caller {
  return { userUuid, role, kind: role === 'guest' ? 'guest' : 'user', capabilities: [], token: 't' };
}

function song(overrides: Partial<Song> = {}): Song {
  const base: Song = {
    id: SONG_ID,
    uploaderUuid: OWNER,
    status: 'VALID_FILE_TYPE',
    transcode: 'queued',
    unverified: false,
    trackName: 'Track',
    artistName: 'Artist',
    genre: null,
    isrc: null,
    durationMs: 12_000,
    fileName: 'a.mp3',
    contentType: 'audio/mpeg',
    container: 'mp3',
    sizeBytes: 1000,
    hlsKey: Buffer.alloc(16),
    hlsIv: Buffer.alloc(16),
    createdAt: new Date(0),
    updatedAt: new Date(0),
    verifiedAt: null,
  };
  const merged = { ...base, ...overrides };
  return { ...merged, status: overrides.status ?? deriveStatus(merged) };
}

describe('song statuses', () => {
  it('derive from the transcoding state, the names and moderation', () => {
    const cases: Array<[TranscodeState, boolean, boolean, string]> = [
      ['queued', true, false, 'VALID_FILE_TYPE'],
      ['postponed', true, false, 'VERIFICATION_POSTPONED'],
      ['ready', true, false, 'VERIFIED'],
      ['failed', true, false, 'VERIFICATION_ERROR'],
      ['queued', false, false, 'MISSING_METADATA'],
      ['ready', false, false, 'MISSING_METADATA'],
      ['postponed', false, false, 'MISSING_METADATA'],
      ['failed', false, false, 'VERIFICATION_ERROR'],
      ['ready', true, true, 'UNVERIFIED'],
      ['queued', false, true, 'UNVERIFIED'],
    ];
    for (const [transcode, named, unverified, status] of cases) {
      const facts = { transcode, unverified, trackName: named ? 'T' : null, artistName: named ? 'A' : null };
      expect(deriveStatus(facts), JSON.stringify(facts)).toBe(status);
    }
    expect(deriveStatus({ transcode: 'ready', unverified: false, trackName: 'T', artistName: null })).toBe('MISSING_METADATA');
  });

  it('announce verified when a song becomes VERIFIED, and again when its catalogue fields change', () => {
    const ready = changeSong(song(), { transcode: 'ready' }, new Date(5));
    expect(ready.song).toMatchObject({ status: 'VERIFIED', verifiedAt: new Date(5) });
    expect(ready.announcements.map((a) => a.kind)).toEqual(['verified']);

    expect(changeSong(ready.song, { genre: null }).announcements).toEqual([]); // nothing changed
    const renamed = changeSong(ready.song, { trackName: 'New name' });
    expect(renamed.announcements).toEqual([{ kind: 'verified', song: expect.objectContaining({ trackName: 'New name' }) }]);
    expect(renamed.song.verifiedAt).toEqual(new Date(5));
  });

  it('waits for the names, then verifies when they are set after transcoding', () => {
    const unnamed = song({ trackName: null, artistName: null });
    expect(unnamed.status).toBe('MISSING_METADATA');
    const transcoded = changeSong(unnamed, { transcode: 'ready' });
    expect(transcoded).toMatchObject({ song: { status: 'MISSING_METADATA' }, announcements: [] });
    const named = changeSong(transcoded.song, { trackName: 'T', artistName: 'A' });
    expect(named.song.status).toBe('VERIFIED');
    expect(named.announcements.map((a) => a.kind)).toEqual(['verified']);
    // Named while still transcoding: back to VALID_FILE_TYPE, nothing announced.
    expect(changeSong(unnamed, { trackName: 'T', artistName: 'A' })).toMatchObject({
      song: { status: 'VALID_FILE_TYPE' },
      announcements: [],
    });
  });

  it('announce withdrawn when a moderator un-verifies, and verified again when that is lifted', () => {
    const verified = song({ transcode: 'ready' });
    const withdrawn = changeSong(verified, { unverified: true });
    expect(withdrawn.song.status).toBe('UNVERIFIED');
    expect(withdrawn.announcements).toEqual([{ kind: 'withdrawn', song: withdrawn.song, reason: 'unverified' }]);
    const lifted = changeSong(withdrawn.song, { unverified: false });
    expect(lifted.song.status).toBe('VERIFIED');
    expect(lifted.announcements.map((a) => a.kind)).toEqual(['verified']);
  });

  it('retries failed attempts with a doubling delay, then gives up', () => {
    const policy = { maxAttempts: 3, baseDelayMs: 1000 };
    expect(afterFailure(1, policy)).toEqual({ retry: true, delayMs: 1000 });
    expect(afterFailure(2, policy)).toEqual({ retry: true, delayMs: 2000 });
    expect(afterFailure(3, policy)).toEqual({ retry: false });
  });
});

describe('permissions', () => {
  it('lets the uploader and moderators edit tags, with the spec message for anyone else', () => {
    expect(() => checkCanEditTags(caller(OWNER), song())).not.toThrow();
    for (const role of ['moderator', 'globalModerator', 'admin', 'superUser'] as const) {
      expect(() => checkCanEditTags(caller(OTHER, role), song())).not.toThrow();
    }
    for (const role of ['user', 'staff', 'promoter', 'bot', 'guest'] as const) {
      expect(() => checkCanEditTags(caller(OTHER, role), song())).toThrow(
        expect.objectContaining({ status: 403, messages: 'Unauthorized to edit tags that not belongs to the user' }),
      );
    }
  });

  it('shows songs that are not verified to their uploader and moderators only', () => {
    const pending = song();
    expect(checkCanSee(caller(OWNER), pending)).toBe(pending);
    expect(checkCanSee(caller(OTHER, 'moderator'), pending)).toBe(pending);
    expect(() => checkCanSee(caller(OTHER), pending)).toThrow(expect.objectContaining({ status: 404, messages: 'Song not found' }));
    const verified = song({ transcode: 'ready' });
    expect(checkCanSee(caller(OTHER, 'guest'), verified)).toBe(verified);
  });
});

describe('tags', () => {
  it('checks edits: names cannot be emptied, genre and isrc can be cleared, ISRCs are normalized', () => {
    expect(checkTagEdit({ trackName: '  Song  ', isrc: 'us-rc1-76-07839', genre: '' })).toEqual({
      trackName: 'Song',
      isrc: 'USRC17607839',
      genre: null,
    });
    expect(checkTagEdit({ isrc: '' })).toEqual({ isrc: null });
    expect(() => checkTagEdit({ artistName: '   ' })).toThrow(
      expect.objectContaining({ status: 400, messages: 'artistName must not be empty' }),
    );
    expect(() => checkTagEdit({ isrc: 'nope' })).toThrow(expect.objectContaining({ status: 400 }));
    expect(() => checkTagEdit({ trackName: 'x'.repeat(256) })).toThrow(expect.objectContaining({ status: 400 }));
  });

  it('reads title, artist, genre and ISRC from file tags in any case, and lets the form win', () => {
    const fromFile = tagsFromFile({ TITLE: 'From file', album_artist: 'Band', Genre: 'House', TSRC: 'GBAYE0601498', encoder: 'x' });
    expect(fromFile).toEqual({ trackName: 'From file', artistName: 'Band', genre: 'House', isrc: 'GBAYE0601498' });
    expect(tagsFromFile({ isrc: 'garbage' }).isrc).toBeNull();
    expect(mergeTags(fromFile, { trackName: 'From form', genre: null })).toEqual({
      trackName: 'From form',
      artistName: 'Band',
      genre: null,
      isrc: 'GBAYE0601498',
    });
  });
});

describe('accepted files', () => {
  const probe = (formatName: string, overrides: Partial<ProbeResult> = {}): ProbeResult => ({
    formatName,
    durationSeconds: 12,
    streams: [{ codecType: 'audio', codecName: 'x', sampleRate: 44100, channels: 2, attachedPic: false }],
    tags: {},
    decodes: true,
    ...overrides,
  });

  it('picks the family from the declared type, or from the extension for octet-stream', () => {
    expect(familyOf('audio/mpeg', 'x.bin').label).toBe('MP3');
    expect(familyOf('Audio/X-M4A; charset=binary', 'x').label).toBe('M4A');
    expect(familyOf('application/octet-stream', 'Song.FLAC').label).toBe('FLAC');
    expect(familyOf('', 'song.opus').label).toBe('OGG');
    for (const [type, name] of [
      ['text/plain', 'a.mp3'],
      ['video/mp4', 'a.mp4'],
      ['image/png', 'a.png'],
      ['application/octet-stream', 'a.exe'],
    ]) {
      expect(() => familyOf(type!, name!)).toThrow(expect.objectContaining({ status: 415 }));
    }
  });

  it('accepts audio of the declared family, with its duration', () => {
    expect(checkProbe(familyOf('audio/mpeg', ''), 'audio/mpeg', probe('mp3'))).toEqual({ durationMs: 12_000, container: 'mp3', tags: {} });
    // audio/aac also takes the M4A files many tools label that way; cover art is no video.
    const withCover = probe('mov,mp4,m4a,3gp,3g2,mj2', {
      streams: [...probe('x').streams, { codecType: 'video', codecName: 'mjpeg', sampleRate: 0, channels: 0, attachedPic: true }],
    });
    expect(checkProbe(familyOf('audio/aac', ''), 'audio/aac', withCover).durationMs).toBe(12_000);
  });

  it('refuses what is not audio (415), another format than declared (415) and damaged audio (400)', () => {
    const mp3 = familyOf('audio/mpeg', '');
    expect(() => checkProbe(mp3, 'audio/mpeg', null)).toThrow(
      expect.objectContaining({ status: 415, messages: 'The file is not an audio file' }),
    );
    const video = probe('mov,mp4,m4a,3gp,3g2,mj2', {
      streams: [{ codecType: 'video', codecName: 'h264', sampleRate: 0, channels: 0, attachedPic: false }],
    });
    expect(() => checkProbe(familyOf('audio/mp4', ''), 'audio/mp4', video)).toThrow(expect.objectContaining({ status: 415 }));
    expect(() => checkProbe(mp3, 'audio/mpeg', probe('wav'))).toThrow(
      expect.objectContaining({ status: 415, messages: "The file's content (WAV) does not match its type audio/mpeg" }),
    );
    expect(() => checkProbe(mp3, 'audio/mpeg', probe('mpegts'))).toThrow(expect.objectContaining({ status: 415 }));
    // What random bytes named .mp3 look like to ffprobe: no sample rate, no duration.
    const garbage = probe('mp3', {
      durationSeconds: null,
      streams: [{ codecType: 'audio', codecName: 'mp3', sampleRate: 0, channels: 0, attachedPic: false }],
    });
    expect(() => checkProbe(mp3, 'audio/mpeg', garbage)).toThrow(
      expect.objectContaining({ status: 400, messages: 'The audio file is corrupt or truncated' }),
    );
    // A good first frame, then garbage: ffprobe is satisfied, decoding is not.
    expect(() => checkProbe(mp3, 'audio/mpeg', probe('mp3', { decodes: false }))).toThrow(expect.objectContaining({ status: 400 }));
  });
});

describe('HLS playlists and key links', () => {
  const stored = [
    '#EXTM3U',
    '#EXT-X-VERSION:3',
    '#EXT-X-TARGETDURATION:6',
    '#EXT-X-PLAYLIST-TYPE:VOD',
    '#EXT-X-KEY:METHOD=AES-128,URI="spinroom-hls-key",IV=0x00112233445566778899aabbccddeeff',
    '#EXTINF:6.013967,',
    'segment-00000.ts',
    '#EXTINF:5.990756,',
    'segment-00001.ts',
    '#EXT-X-ENDLIST',
    '',
  ].join('\n');

  it('point segments at the BFF and the key at the caller’s signed link', () => {
    const out = rewritePlaylist(stored, SONG_ID, '/api/upload-service/songs/hls/key?songId=x&sig=y');
    expect(out).toContain(
      '#EXT-X-KEY:METHOD=AES-128,URI="/api/upload-service/songs/hls/key?songId=x&sig=y",IV=0x00112233445566778899aabbccddeeff',
    );
    expect(out).toContain(`\n/api/upload-service/songs/${SONG_ID}/hls/segment-00001.ts\n`);
    expect(playlistDurationMs(stored)).toBe(12_005);
    expect(() => rewritePlaylist(`${stored}\nhttps://evil.example/x.ts`, SONG_ID, 'k')).toThrow();
  });

  it('sign key links per song and user, refusing tampering and expiry', () => {
    const tokens = new KeyTokens('a-secret-of-at-least-thirty-two-chars!', 60);
    const now = new Date(1_800_000_000_000);
    const { uri, expiresAt } = tokens.keyUri(SONG_ID, OWNER, now);
    expect(expiresAt).toEqual(new Date(now.getTime() + 60_000));
    const query = new URL(uri, 'http://x').searchParams;
    const fields = {
      songId: query.get('songId')!,
      user: query.get('user')!,
      expires: query.get('expires')!,
      signature: query.get('signature')!,
    };
    expect(() => tokens.verify(fields, now)).not.toThrow();
    const refused = expect.objectContaining({ status: 403, messages: 'The key link is invalid or has expired' });
    expect(() => tokens.verify({ ...fields, songId: '44444444-4444-4444-8444-444444444444' }, now)).toThrow(refused);
    expect(() => tokens.verify({ ...fields, expires: String(Number(fields.expires) + 3600) }, now)).toThrow(refused);
    expect(() => tokens.verify(fields, new Date(now.getTime() + 61_000))).toThrow(refused);
    expect(() => new KeyTokens('another-secret-of-at-least-32-chars!!', 60).verify(fields, now)).toThrow(refused);
  });
});

describe('transcoder notifications', () => {
  const secret = 'transcoder-secret-of-at-least-32-chars';
  const now = new Date(1_800_000_000_000);
  const timestamp = String(now.getTime() / 1000);
  const signed = (body: string, ts = timestamp) => ({
    body: Buffer.from(body),
    timestamp: ts,
    signature: signNotification(secret, ts, body),
  });

  it('reads a signed notice, bare or in an SNS envelope', () => {
    const notice = JSON.stringify({ songId: SONG_ID, status: 'COMPLETE' });
    expect(readNotification(secret, signed(notice), now)).toEqual({ songId: SONG_ID, status: 'COMPLETE' });
    const envelope = JSON.stringify({ Type: 'Notification', Message: JSON.stringify({ songId: SONG_ID, status: 'ERROR', error: 'boom' }) });
    expect(readNotification(secret, signed(envelope), now)).toEqual({ songId: SONG_ID, status: 'ERROR', error: 'boom' });
  });

  it('refuses a wrong signature or a stale timestamp (401) and a body it does not understand (400)', () => {
    const notice = JSON.stringify({ songId: SONG_ID, status: 'COMPLETE' });
    const unauthorized = expect.objectContaining({ status: 401, messages: 'Invalid transcoder notification signature' });
    expect(() => readNotification(secret, { ...signed(notice), signature: 'sha256=00' }, now)).toThrow(unauthorized);
    expect(() => readNotification(secret, { ...signed(notice), body: Buffer.from(notice.replace('COMPLETE', 'ERROR')) }, now)).toThrow(
      unauthorized,
    );
    const old = String(now.getTime() / 1000 - 301);
    expect(() => readNotification(secret, signed(notice, old), now)).toThrow(unauthorized);
    expect(() => readNotification(secret, signed('{"songId": "x", "status": "COMPLETE"}'), now)).toThrow(
      expect.objectContaining({ status: 400 }),
    );
    expect(() => readNotification(secret, signed('not json'), now)).toThrow(expect.objectContaining({ status: 400 }));
  });
});
