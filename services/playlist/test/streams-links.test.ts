import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { validAnalysisSignature } from '../src/domain/analysis.js';
import { completedLinks } from '../src/domain/links.js';
import type { Song } from '../src/domain/song.js';
import { choosePreview, chooseStream, streamCountry, streamQuality, type SevenDigitalLinks } from '../src/domain/streams.js';

const song = (over: Partial<Song>): Song => ({
  id: 1,
  songId: '00000000-0000-4000-8000-000000000001',
  songShortId: 'abc',
  isrc: '',
  trackName: 'T',
  artistName: 'A',
  duration: 100,
  explicit: false,
  genre: '',
  albumName: '',
  musicProviders: {},
  thumbnails: {},
  links: {},
  previews: {},
  streamUrls: {},
  status: 'SUCCESS',
  playbackToken: '',
  ...over,
});
const signer: SevenDigitalLinks = {
  enabled: true,
  streamUrl: (id, o) => `https://stream.example/${id}?q=${o.quality}&c=${o.country}`,
  previewUrl: (id) => `https://clip.example/${id}`,
};
const off: SevenDigitalLinks = { ...signer, enabled: false };
const medium = { country: 'US', quality: 'medium' as const };

describe('streams', () => {
  it("plays an upload's HLS playlist before anything else", () => {
    const s = song({
      streamUrls: { uploadService: '/api/upload-service/songs/x/hls-playlist' },
      musicProviders: { sevenDigital: '1', uploadService: 'x' },
    });
    expect(chooseStream(s, signer, medium, 0)).toMatchObject({
      musicProvider: 'uploadService',
      kind: 'hls',
      url: '/api/upload-service/songs/x/hls-playlist',
    });
  });

  it('signs a 7digital stream with the quality and country, and falls back to previews when 7digital is off', () => {
    const s = song({ musicProviders: { sevenDigital: '42', spotify: 'x' }, previews: { spotify: 'https://p.scdn.co/x' } });
    expect(chooseStream(s, signer, { country: 'GB', quality: 'high' }, 0)).toMatchObject({
      kind: 'stream',
      url: 'https://stream.example/42?q=high&c=GB',
      expiresAt: new Date(3_600_000),
    });
    expect(chooseStream(s, off, medium, 0)).toMatchObject({ kind: 'preview', musicProvider: 'spotify', url: 'https://p.scdn.co/x' });
    expect(choosePreview(s, signer, 'US', 0)).toMatchObject({ musicProvider: 'sevenDigital', url: 'https://clip.example/42' });
  });

  it('says there is no stream or preview, and checks quality and country', () => {
    expect(() => chooseStream(song({}), signer, medium, 0)).toThrow('No stream for this song');
    expect(choosePreview(song({}), signer, 'US', 0)).toBeNull();
    expect(streamQuality('')).toBe('medium');
    expect(() => streamQuality('ultra')).toThrow('quality must be low, medium or high');
    expect(streamCountry('')).toBe('US');
    expect(streamCountry('gb')).toBe('GB');
  });
});

describe('links from provider ids', () => {
  it('fills only the missing links it can make, and answers null when nothing changes', () => {
    expect(
      completedLinks(
        { spotify: '0DiWol3AO6WpXZgp0goxAV', apple: '897072750', youtube: 'dQw4w9WgXcQ', soundCloudPublic: '123' },
        { spotify: 'https://kept' },
      ),
    ).toEqual({
      spotify: 'https://kept',
      apple: 'https://music.apple.com/us/song/897072750',
      youtube: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
      soundCloudPublic: 'https://w.soundcloud.com/player/?url=https%3A%2F%2Fapi.soundcloud.com%2Ftracks%2F123',
    });
    expect(completedLinks({ audius: 'Ab1', spotify: 'bad id' }, {})).toBeNull();
  });
});

describe('analysis webhook signature', () => {
  it('is the hex HMAC-SHA512 of the exact body', () => {
    const body = Buffer.from('{"type":"TEST","data":null}');
    const good = createHmac('sha512', 'secret').update(body).digest('hex');
    expect(validAnalysisSignature('secret', body, good)).toBe(true);
    expect(validAnalysisSignature('secret', Buffer.from(`${body} `), good)).toBe(false);
    expect(validAnalysisSignature('other', body, good)).toBe(false);
    expect(validAnalysisSignature('secret', body, '')).toBe(false);
  });
});
