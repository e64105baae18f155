import { describe, expect, it } from 'vitest';
import { isMusicLink, parseTrackLink } from '../src/domain/links.js';

describe('shared music links (spec 002)', () => {
  it('looks up only links whose host names a music service', () => {
    expect(isMusicLink('https://open.spotify.com/track/0DiWol3AO6WpXZgp0goxAV')).toBe(true);
    expect(isMusicLink('https://youtu.be/dQw4w9WgXcQ')).toBe(true);
    expect(isMusicLink('https://www.deezer.com/track/3135556')).toBe(true);
    expect(isMusicLink('https://example.com/spotify')).toBe(false);
    expect(isMusicLink('not a url')).toBe(false);
    expect(isMusicLink('javascript:alert(1)//spotify')).toBe(false);
  });

  it('finds the track of Spotify, Apple Music and YouTube links', () => {
    expect(parseTrackLink('https://open.spotify.com/track/0DiWol3AO6WpXZgp0goxAV?si=abc')).toEqual({
      provider: 'spotify',
      providerSongId: '0DiWol3AO6WpXZgp0goxAV',
    });
    expect(parseTrackLink('https://open.spotify.com/intl-de/track/0DiWol3AO6WpXZgp0goxAV')).toEqual({
      provider: 'spotify',
      providerSongId: '0DiWol3AO6WpXZgp0goxAV',
    });
    expect(parseTrackLink('https://music.apple.com/us/album/discovery/697194953?i=697195462')).toEqual({
      provider: 'apple',
      providerSongId: '697195462',
    });
    expect(parseTrackLink('https://music.apple.com/us/song/one-more-time/697195462')).toEqual({
      provider: 'apple',
      providerSongId: '697195462',
    });
    expect(parseTrackLink('https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=10')).toEqual({
      provider: 'youtube',
      providerSongId: 'dQw4w9WgXcQ',
    });
    expect(parseTrackLink('https://youtu.be/dQw4w9WgXcQ')).toEqual({ provider: 'youtube', providerSongId: 'dQw4w9WgXcQ' });
  });

  it('finds nothing in albums, playlists, other services or malformed ids', () => {
    expect(parseTrackLink('https://open.spotify.com/album/2noRn2Aes5aoNVsU6iWThc')).toBeNull();
    expect(parseTrackLink('https://open.spotify.com/track/short')).toBeNull();
    expect(parseTrackLink('https://music.apple.com/us/album/discovery/697194953')).toBeNull();
    expect(parseTrackLink('https://www.deezer.com/track/3135556')).toBeNull();
    expect(parseTrackLink('https://example.com/track/0DiWol3AO6WpXZgp0goxAV')).toBeNull();
  });
});
