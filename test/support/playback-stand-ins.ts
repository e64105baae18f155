// Local stand-ins for what the web client's players load and call at the music
// providers' own addresses (web/src/playback): each SDK's public interface
// (window.Spotify.Player, window.MusicKit, window.YT.Player) as a script, and
// the endpoints behind them (Spotify's Web API player paths, Apple Music's
// storefront and catalogue song, SoundCloud's /tracks/{id}/streams, Audius's
// /v1/tracks/{id}/stream, the CDNs' audio: SoundCloud's AAC HLS, 7digital's
// signed catalogue stream). One HTTP server answers for every
// host under /<host>/<path>; `route(context)` sends a browser context's requests
// for those https addresses to it, so the page, its CSP and the adapters use the
// real addresses. Tokens are checked as the providers would: Spotify's and
// SoundCloud's against the OAuth stand-in that issued them, Apple's developer
// token by its ES256 signature and the Music User Token against those linked,
// 7digital's stream links by their OAuth 1.0 signature.
import { execFile } from 'node:child_process';
import { createHmac, randomBytes, verify, type KeyObject } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { BrowserContext } from 'playwright-core';
import { SEVEN_DIGITAL_CONSUMER } from '../../services/playlist/test/stand-ins/seven-digital.js';
import type { OAuthStandIns } from './oauth-stand-ins.js';

/** The providers' addresses the web client uses (web/src/playback/config.ts), answered here. */
export const PLAYBACK_HOSTS = [
  'sdk.scdn.co',
  'api.spotify.com',
  'js-cdn.music.apple.com',
  'api.music.apple.com',
  'authorize.music.apple.com',
  'www.youtube.com',
  'api.soundcloud.com',
  'cf-media.sndcdn.com',
  'playback.media-streaming.soundcloud.cloud',
  'api.audius.co',
  'stream.svc.7digital.net',
] as const;

interface SpotifyDevice {
  id: string;
  token: string;
  uri?: string;
  positionMs: number;
  since: number;
  playing: boolean;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A WAV of `seconds` of a quiet tone (8 kHz, 8-bit mono): what every stand-in stream plays. */
function wav(seconds: number): Buffer {
  const rate = 8000;
  const samples = rate * seconds;
  const buffer = Buffer.alloc(44 + samples);
  buffer.write('RIFF', 0);
  buffer.writeUInt32LE(36 + samples, 4);
  buffer.write('WAVEfmt ', 8);
  buffer.writeUInt32LE(16, 16);
  buffer.writeUInt16LE(1, 20);
  buffer.writeUInt16LE(1, 22);
  buffer.writeUInt32LE(rate, 24);
  buffer.writeUInt32LE(rate, 28);
  buffer.writeUInt16LE(1, 32);
  buffer.writeUInt16LE(8, 34);
  buffer.write('data', 36);
  buffer.writeUInt32LE(samples, 40);
  for (let i = 0; i < samples; i++) buffer[44 + i] = 128 + Math.round(20 * Math.sin((2 * Math.PI * 440 * i) / rate));
  return buffer;
}

/**
 * `seconds` of the tone as SoundCloud's AAC HLS (fMP4 segments of 10 s, as its
 * aac_160k transcoding; here mono 32 kb/s to stay small), made once by ffmpeg:
 * file name -> bytes, with `playlist.m3u8`.
 */
async function aacHls(seconds: number): Promise<Map<string, Buffer>> {
  const dir = await mkdtemp(join(tmpdir(), 'stand-in-hls-'));
  try {
    await promisify(execFile)('ffmpeg', [
      ...['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=22050:duration=${seconds}`],
      ...['-c:a', 'aac', '-b:a', '32k', '-ac', '1', '-f', 'hls', '-hls_time', '10', '-hls_playlist_type', 'vod'],
      ...['-hls_segment_type', 'fmp4', '-hls_fmp4_init_filename', 'init.mp4', '-hls_segment_filename', join(dir, 'seg-%03d.m4s')],
      join(dir, 'playlist.m3u8'),
    ]);
    const files = new Map<string, Buffer>();
    for (const name of await readdir(dir)) files.set(name, await readFile(join(dir, name)));
    return files;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** RFC 3986 encoding, for checking OAuth 1.0 signatures. */
const rfc3986 = (value: string) => encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** A URL signed with OAuth 1.0 HMAC-SHA1 by the consumer key and secret alone (7digital's signed links). */
function signedBy7digital(url: URL): boolean {
  const signature = url.searchParams.get('oauth_signature');
  if (!signature || url.searchParams.get('oauth_consumer_key') !== SEVEN_DIGITAL_CONSUMER.key) return false;
  const params = [...url.searchParams.entries()]
    .filter(([k]) => k !== 'oauth_signature')
    .map(([k, v]) => `${rfc3986(k)}=${rfc3986(v)}`)
    .sort()
    .join('&');
  const base = `GET&${rfc3986(`${url.origin}${url.pathname}`)}&${rfc3986(params)}`;
  return (
    createHmac('sha1', `${rfc3986(SEVEN_DIGITAL_CONSUMER.secret)}&`)
      .update(base)
      .digest('base64') === signature
  );
}

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-headers': 'authorization, content-type, music-user-token, range, accept',
  'access-control-allow-methods': 'GET, POST, PUT, DELETE, OPTIONS',
  'access-control-expose-headers': 'content-length, content-range, accept-ranges',
};

const SPOTIFY_SDK = `(() => {
  const API = 'https://api.spotify.com';
  class Player {
    constructor(options) { this._options = options; this._listeners = {}; this._volume = options.volume ?? 1; }
    addListener(event, cb) { (this._listeners[event] ??= []).push(cb); return true; }
    on(event, cb) { return this.addListener(event, cb); }
    removeListener(event) { delete this._listeners[event]; return true; }
    _emit(event, payload) { for (const cb of this._listeners[event] ?? []) cb(payload); }
    _token() { return new Promise((resolve) => this._options.getOAuthToken(resolve)); }
    async _call(method, path, body) {
      let token = await this._token();
      return fetch(API + path, { method, headers: { authorization: 'Bearer ' + token, 'content-type': 'application/json' }, body: body ? JSON.stringify(body) : undefined });
    }
    async connect() {
      const res = await this._call('POST', '/stand-in/devices', { name: this._options.name });
      if (res.status === 401) { this._emit('authentication_error', { message: 'Authentication failed' }); return false; }
      if (res.status === 403) { this._emit('account_error', { message: 'This functionality is restricted to premium users only' }); return false; }
      const { device_id } = await res.json();
      this._device = device_id;
      setTimeout(() => this._emit('ready', { device_id }), 0);
      return true;
    }
    disconnect() { if (this._device) void this._call('DELETE', '/stand-in/devices/' + this._device); this._device = undefined; }
    async getCurrentState() {
      if (!this._device) return null;
      const res = await this._call('GET', '/v1/me/player?device_id=' + this._device);
      if (res.status !== 200) return null;
      const state = await res.json();
      (window.__spotifyStandIn ??= []).push(['state', Date.now(), state.progress_ms, state.is_playing]);
      return { position: state.progress_ms, paused: !state.is_playing, track_window: { current_track: { uri: state.item?.uri } } };
    }
    async seek(ms) { (window.__spotifyStandIn ??= []).push(['seek', Date.now(), ms]); await this._call('PUT', '/v1/me/player/seek?position_ms=' + Math.round(ms) + '&device_id=' + this._device); }
    async pause() { await this._call('PUT', '/v1/me/player/pause?device_id=' + this._device); }
    async resume() { await this._call('PUT', '/v1/me/player/play?device_id=' + this._device); }
    async togglePlay() { const s = await this.getCurrentState(); return s?.paused ? this.resume() : this.pause(); }
    async setVolume(v) { this._volume = v; }
    async getVolume() { return this._volume; }
    async activateElement() {}
  }
  window.Spotify = { Player };
  window.onSpotifyWebPlaybackSDKReady?.();
})();`;

const MUSICKIT = `(() => {
  const API = 'https://api.music.apple.com';
  const failure = (status) => Object.assign(new Error('MusicKit ' + status), { errorCode: status === 404 ? 'CONTENT_UNAVAILABLE' : status === 401 || status === 403 ? 'UNAUTHORIZED' : 'SERVER_ERROR' });
  let instance;
  class MusicKitInstance {
    constructor(options) {
      this._options = options; this.storefrontId = options.storefrontId || 'us'; this.isAuthorized = false;
      this.volume = 1; this.nowPlayingItem = undefined; this._base = 0; this._since = 0; this.isPlaying = false;
      const iss = JSON.parse(atob(options.developerToken.split('.')[1].replace(/-/g, '+').replace(/_/g, '/'))).iss;
      this._userTokenKey = 'music.' + String(iss).toLowerCase() + '.media-user-token';
    }
    get developerToken() { return this._options.developerToken; }
    get musicUserToken() { return localStorage.getItem(this._userTokenKey) || ''; }
    get currentPlaybackTime() { return this.isPlaying ? this._base + (Date.now() - this._since) / 1000 : this._base; }
    _get(path) { return fetch(API + path, { headers: { authorization: 'Bearer ' + this.developerToken, 'music-user-token': this.musicUserToken } }); }
    async _authorize() { this.isAuthorized = (await this._get('/v1/me/storefront')).status === 200; }
    async setQueue(options) {
      const res = await this._get('/v1/catalog/' + this.storefrontId + '/songs/' + encodeURIComponent(options.song));
      if (res.status !== 200) throw failure(res.status);
      this.nowPlayingItem = { id: options.song };
      this._base = options.startTime || 0; this._since = Date.now(); this.isPlaying = false;
      if (options.startPlaying) await this.play();
    }
    async play() { if (this.nowPlayingItem && !this.isPlaying) { this._since = Date.now(); this.isPlaying = true; } }
    pause() { this._base = this.currentPlaybackTime; this.isPlaying = false; }
    stop() { this.pause(); this.nowPlayingItem = undefined; this._base = 0; }
    async seekToTime(seconds) { if (!this.nowPlayingItem) throw failure(0); this._base = seconds; this._since = Date.now(); }
    // Apple's sign-in: a window at authorize.music.apple.com/woa (the developer token and app name in \`a\`), whose page
    // posts the new Music User Token back to this window, which keeps it where MusicKit does. Closed without one: refused.
    async authorize() {
      if (this.isAuthorized) return this.musicUserToken;
      const a = btoa(JSON.stringify({ thirdPartyIconURL: '', thirdPartyName: this._options.app?.name || '', thirdPartyToken: this.developerToken }));
      const popup = window.open('https://authorize.music.apple.com/woa?' + new URLSearchParams({ a, referrer: location.origin, app: 'music', p: 'subscribe' }), 'MusicKitAuthorize', 'width=480,height=640');
      const refused = () => Object.assign(new Error('MusicKit authorization was not completed'), { errorCode: 'AUTHORIZATION_ERROR' });
      if (!popup) throw refused();
      const token = await new Promise((resolve, reject) => {
        const done = () => { clearInterval(watch); window.removeEventListener('message', onMessage); };
        const onMessage = (e) => {
          if (e.origin !== 'https://authorize.music.apple.com') return;
          done();
          e.data && e.data.musicUserToken ? resolve(e.data.musicUserToken) : reject(refused());
        };
        const watch = setInterval(() => { if (popup.closed) { done(); reject(refused()); } }, 200);
        window.addEventListener('message', onMessage);
      });
      localStorage.setItem(this._userTokenKey, token);
      this.isAuthorized = true;
      return token;
    }
    async unauthorize() { localStorage.removeItem(this._userTokenKey); this.isAuthorized = false; }
  }
  window.MusicKit = {
    version: '3.stand-in',
    async configure(options) { instance = new MusicKitInstance(options); await instance._authorize(); return instance; },
    getInstance() { return instance; },
  };
  document.dispatchEvent(new Event('musickitloaded'));
})();`;

const youtubeApi = (videos: string[]) => `(() => {
  const known = new Set(${JSON.stringify(videos)});
  const players = (window.__youtubeStandIn = []);
  class Player {
    constructor(element, options) {
      this._options = options; this._state = -1; this._base = (options.playerVars && options.playerVars.start) || 0; this._since = 0; this._volume = 100;
      this._iframe = document.createElement('iframe');
      this._iframe.width = String(options.width || 640); this._iframe.height = String(options.height || 360);
      this._iframe.title = 'YouTube video player';
      element.replaceWith(this._iframe);
      players.push(this);
      this._load(options.videoId, this._base, () => {
        options.events?.onReady?.({ target: this, data: null });
        if (options.playerVars?.autoplay) this.playVideo();
      });
    }
    _load(videoId, start, then) {
      this._videoId = videoId; this._state = -1; this._base = start;
      this._iframe.src = 'https://www.youtube.com/embed/' + encodeURIComponent(videoId);
      setTimeout(() => {
        if (!known.has(videoId)) { this._options.events?.onError?.({ target: this, data: 100 }); return; }
        then();
      }, 30);
    }
    _emit(state) { this._state = state; this._options.events?.onStateChange?.({ target: this, data: state }); }
    getVideoData() { return { video_id: this._videoId }; }
    getCurrentTime() { return this._state === 1 ? this._base + (Date.now() - this._since) / 1000 : this._base; }
    getPlayerState() { return this._state; }
    playVideo() { if (this._state !== 1) { this._since = Date.now(); this._emit(1); } }
    pauseVideo() { this._base = this.getCurrentTime(); this._emit(2); }
    stopVideo() { this._base = 0; this._emit(5); }
    seekTo(seconds) { this._base = seconds; this._since = Date.now(); }
    loadVideoById(options) {
      const id = typeof options === 'string' ? options : options.videoId;
      const start = typeof options === 'string' ? 0 : options.startSeconds || 0;
      this._load(id, start, () => { this._since = Date.now(); this._emit(1); });
    }
    setVolume(v) { this._volume = v; }
    getVolume() { return this._volume; }
    destroy() { this._iframe.remove(); players.splice(players.indexOf(this), 1); }
  }
  window.YT = { Player, PlayerState: { UNSTARTED: -1, ENDED: 0, PLAYING: 1, PAUSED: 2, BUFFERING: 3, CUED: 5 }, loaded: 1 };
  window.onYouTubeIframeAPIReady?.();
})();`;

export class PlaybackStandIns {
  /** Songs each provider has (ids); anything else is "not found" there. */
  readonly spotifyTracks = new Set<string>();
  readonly appleSongs = new Set<string>();
  readonly youtubeVideos = new Set<string>();
  readonly soundCloudTracks = new Set<string>();
  readonly audiusTracks = new Set<string>();
  /** 7digital track ids its catalogue streams. */
  readonly sevenDigitalTracks = new Set<string>();
  /** Music User Tokens Apple accepts (the test links one, then may withdraw it: an expired subscription). */
  readonly appleUserTokens = new Set<string>();
  /** Music User Tokens Apple's sign-in window issued (the user allowed the app), in order. */
  readonly appleAuthorizations: string[] = [];
  /** Spotify access tokens Spotify has let expire (401), though the OAuth stand-in issued them. */
  readonly expiredSpotifyTokens = new Set<string>();
  /** SoundCloud answers the next streams request 403 (a token it stopped accepting): the client should retry once. */
  soundCloudRefusals = 0;
  /** The token of each SoundCloud streams request, in order (`OAuth <token>`). */
  readonly soundCloudTokens: string[] = [];
  readonly devices = new Map<string, SpotifyDevice>();
  /** "METHOD host/path" of each request, for tests that check what was asked. */
  readonly requests: string[] = [];
  private readonly audio = wav(240);
  /** SoundCloud's AAC HLS of the tone, made when the stand-ins start (ffmpeg), awaited when first asked for. */
  private readonly hls = aacHls(240);
  private readonly appleKey: KeyObject;

  private constructor(
    private readonly server: Server,
    private readonly oauth: OAuthStandIns,
    apple: { publicKey: KeyObject; keyId: string; teamId: string },
  ) {
    this.appleKey = apple.publicKey;
    this.apple = apple;
    // Awaited when the first playlist is asked for; a failure (no ffmpeg) answers 500 then, not an unhandled rejection now.
    this.hls.catch(() => undefined);
  }
  private readonly apple: { keyId: string; teamId: string };

  static async start(oauth: OAuthStandIns, apple: { publicKey: KeyObject; keyId: string; teamId: string }): Promise<PlaybackStandIns> {
    let standIns: PlaybackStandIns | undefined;
    const server = createServer((req, res) => {
      void standIns!.handle(req, res).catch((error: unknown) => {
        res.writeHead(500, CORS).end(String(error));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    standIns = new PlaybackStandIns(server, oauth, apple);
    return standIns;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Sends this context's requests for the providers' addresses here (the browser sees the real https addresses). */
  async route(context: BrowserContext): Promise<void> {
    const hosts = PLAYBACK_HOSTS.map((h) => h.replace(/\./g, '\\.')).join('|');
    await context.route(new RegExp(`^https://(${hosts})/`), async (route) => {
      const request = route.request();
      const target = new URL(request.url());
      const headers = { ...request.headers() };
      delete headers.host;
      const res = await fetch(`${this.url}/${target.host}${target.pathname}${target.search}`, {
        method: request.method(),
        headers,
        body: ['GET', 'HEAD'].includes(request.method()) ? undefined : (request.postDataBuffer() ?? undefined),
      });
      await route.fulfill({
        status: res.status,
        headers: Object.fromEntries(res.headers.entries()),
        body: Buffer.from(await res.arrayBuffer()),
      });
    });
  }

  /** Where the Spotify device of this token's listener is in its song, in seconds (undefined when not playing). */
  spotifyPosition(deviceId: string): number | undefined {
    const device = this.devices.get(deviceId);
    return device?.playing ? (device.positionMs + (Date.now() - device.since)) / 1000 : undefined;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const [, host = '', ...rest] = url.pathname.split('/');
    const path = `/${rest.join('/')}`;
    const method = req.method ?? 'GET';
    this.requests.push(`${method} ${host}${path}`);
    if (method === 'OPTIONS') return void res.writeHead(204, CORS).end();
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString();
    const json = (status: number, value: unknown) =>
      void res.writeHead(status, { ...CORS, 'content-type': 'application/json' }).end(JSON.stringify(value));
    const script = (text: string) => void res.writeHead(200, { ...CORS, 'content-type': 'text/javascript' }).end(text);
    const bearer = String(req.headers.authorization ?? '').replace(/^(Bearer|OAuth) /i, '');

    switch (host) {
      case 'sdk.scdn.co':
        return path === '/spotify-player.js' ? script(SPOTIFY_SDK) : json(404, {});
      case 'js-cdn.music.apple.com':
        return path === '/musickit/v3/musickit.js' ? script(MUSICKIT) : json(404, {});
      case 'www.youtube.com':
        if (path === '/iframe_api') return script(youtubeApi([...this.youtubeVideos]));
        if (path.startsWith('/embed/'))
          return void res
            .writeHead(200, { 'content-type': 'text/html' })
            .end(`<!doctype html><title>video</title><body style="margin:0;background:#000;color:#fff">▶ ${path.slice(7)}</body>`);
        return json(404, {});
      case 'api.spotify.com':
        return this.spotify(method, path, url.searchParams, bearer, body, json);
      case 'api.music.apple.com':
        return this.appleMusic(path, req, json);
      case 'authorize.music.apple.com':
        return this.appleAuthorize(method, path, url.searchParams, body, res);
      case 'api.soundcloud.com': {
        const match = /^\/tracks\/([^/]+)\/streams$/.exec(path);
        if (!match) return json(404, { code: 404, message: 'Not found' });
        this.soundCloudTokens.push(bearer);
        if (!this.oauth.isLiveAccessToken(bearer)) return json(401, { code: 401, message: 'Unauthorized' });
        if (this.soundCloudRefusals > 0) {
          this.soundCloudRefusals--;
          return json(403, { code: 403, message: 'Forbidden' });
        }
        const id = decodeURIComponent(match[1]!);
        if (!this.soundCloudTracks.has(id)) return json(404, { code: 404, message: 'Not found' });
        // What /streams answers since SoundCloud removed its MP3 and Opus transcodings (the progressive MP3
        // went on 2026-08-12): AAC HLS, 160k preferred, 96k where available, and the preview.
        const track = encodeURIComponent(id);
        const hls = (preset: string) =>
          `https://playback.media-streaming.soundcloud.cloud/${track}/${preset}/0b5e1c3a/playlist.m3u8?expires=${Date.now() + 3_600_000}`;
        return json(200, {
          hls_aac_160_url: hls('aac_160k'),
          hls_aac_96_url: hls('aac_96k'),
          preview_mp3_128_url: `https://cf-preview-media.sndcdn.com/preview/0/30/${track}.128.mp3`,
        });
      }
      case 'playback.media-streaming.soundcloud.cloud': {
        const match = /^\/([^/]+)\/aac_(?:160|96)k\/[^/]+\/([\w.-]+)$/.exec(path);
        const file = match && this.soundCloudTracks.has(decodeURIComponent(match[1]!)) ? (await this.hls).get(match[2]!) : undefined;
        if (!file) return void res.writeHead(404, CORS).end();
        const type = match![2]!.endsWith('.m3u8') ? 'application/vnd.apple.mpegurl' : 'audio/mp4';
        return void res.writeHead(200, { ...CORS, 'content-type': type, 'content-length': file.length }).end(file);
      }
      case 'cf-media.sndcdn.com':
        return this.sendAudio(req, res);
      case 'stream.svc.7digital.net': {
        // 7digital's catalogue stream: a link signed with the app's consumer key and secret, for a track it has.
        const signed = new URL(`https://${host}${path}${url.search}`);
        if (path !== '/stream/catalogue' || !signedBy7digital(signed))
          return void res.writeHead(401, CORS).end('OAuth authentication error');
        if (!this.sevenDigitalTracks.has(url.searchParams.get('trackId') ?? '')) return void res.writeHead(404, CORS).end('Not found');
        return this.sendAudio(req, res);
      }
      case 'api.audius.co': {
        const match = /^\/v1\/tracks\/([^/]+)\/stream$/.exec(path);
        if (!match || !this.audiusTracks.has(decodeURIComponent(match[1]!))) return json(404, { data: null });
        return this.sendAudio(req, res);
      }
      default:
        return json(404, {});
    }
  }

  /** The tone, honouring Range (browsers seek by asking for the bytes from a point). */
  private sendAudio(req: IncomingMessage, res: ServerResponse) {
    const total = this.audio.length;
    const range = /bytes=(\d*)-(\d*)/.exec(String(req.headers.range ?? ''));
    const headers = { ...CORS, 'content-type': 'audio/wav', 'accept-ranges': 'bytes' };
    if (!range) return void res.writeHead(200, { ...headers, 'content-length': total }).end(this.audio);
    const start = range[1] ? Number(range[1]) : 0;
    const end = range[2] ? Math.min(Number(range[2]), total - 1) : total - 1;
    res
      .writeHead(206, { ...headers, 'content-length': end - start + 1, 'content-range': `bytes ${start}-${end}/${total}` })
      .end(this.audio.subarray(start, end + 1));
  }

  private spotify(
    method: string,
    path: string,
    query: URLSearchParams,
    token: string,
    body: string,
    json: (status: number, value: unknown) => void,
  ) {
    if (!this.oauth.isLiveAccessToken(token) || this.expiredSpotifyTokens.has(token)) {
      return json(401, { error: { status: 401, message: 'The access token expired' } });
    }
    if (method === 'POST' && path === '/stand-in/devices') {
      const id = `device-${this.devices.size + 1}-${Math.random().toString(36).slice(2, 8)}`;
      this.devices.set(id, { id, token, positionMs: 0, since: Date.now(), playing: false });
      return json(200, { device_id: id });
    }
    const device = this.devices.get(query.get('device_id') ?? '');
    if (!device) return json(404, { error: { status: 404, message: 'Device not found' } });
    const now = Date.now();
    const position = () => device.positionMs + (device.playing ? now - device.since : 0);
    if (method === 'GET' && path === '/v1/me/player') {
      return json(200, {
        device: { id: device.id },
        item: device.uri ? { uri: device.uri } : null,
        progress_ms: position(),
        is_playing: device.playing,
      });
    }
    if (method === 'PUT' && path === '/v1/me/player/play') {
      const wanted = body ? (JSON.parse(body) as { uris?: string[]; position_ms?: number }) : {};
      if (wanted.uris) {
        const id = /^spotify:track:(.+)$/.exec(wanted.uris[0] ?? '')?.[1];
        if (!id) return json(400, { error: { status: 400, message: 'Invalid track uri' } });
        if (!this.spotifyTracks.has(id)) return json(404, { error: { status: 404, message: 'Not found.' } });
        Object.assign(device, { uri: wanted.uris[0], positionMs: wanted.position_ms ?? 0, since: now, playing: true });
      } else if (device.uri) Object.assign(device, { positionMs: position(), since: now, playing: true });
      return json(204, {});
    }
    if (method === 'PUT' && path === '/v1/me/player/pause') {
      Object.assign(device, { positionMs: position(), since: now, playing: false });
      return json(204, {});
    }
    if (method === 'PUT' && path === '/v1/me/player/seek') {
      Object.assign(device, { positionMs: Number(query.get('position_ms') ?? 0), since: now });
      return json(204, {});
    }
    return json(404, { error: { status: 404, message: 'Service not found' } });
  }

  /** Moves a device's position as a player that drifted would (tests of the drift correction). */
  drift(deviceId: string, seconds: number): void {
    const device = this.devices.get(deviceId);
    if (device) device.positionMs += seconds * 1000;
  }

  /**
   * Apple's sign-in window for MusicKit: the page names the app and asks the (signed-in) Apple account to allow it;
   * Allow issues a Music User Token for the developer token's team and posts it to the opener, Don't Allow closes.
   */
  private appleAuthorize(method: string, path: string, query: URLSearchParams, body: string, res: ServerResponse) {
    const html = (status: number, text: string) => void res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(text);
    if (method === 'POST' && path === '/woa/grant') {
      const { developerToken } = JSON.parse(body || '{}') as { developerToken?: string };
      if (!developerToken || !this.validDeveloperToken(developerToken)) return html(401, 'Unauthorized');
      const token = `apple-mut-${randomBytes(24).toString('base64url')}`;
      this.appleUserTokens.add(token);
      this.appleAuthorizations.push(token);
      return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ musicUserToken: token }));
    }
    if (method !== 'GET' || path !== '/woa') return html(404, 'Not found');
    let info: { thirdPartyName?: string; thirdPartyToken?: string } = {};
    try {
      info = JSON.parse(Buffer.from(query.get('a') ?? '', 'base64').toString()) as typeof info;
    } catch {
      // an unreadable request: the page says so below
    }
    const referrer = query.get('referrer') ?? '';
    if (!info.thirdPartyToken || !this.validDeveloperToken(info.thirdPartyToken) || !/^https?:\/\/[^/]+$/.test(referrer)) {
      return html(400, '<!doctype html><title>Apple Music</title><p>This app cannot connect to Apple Music.</p>');
    }
    const page = `<!doctype html><html lang="en"><title>Apple Music</title>
<h1>Allow ${escapeHtml(info.thirdPartyName ?? '')} to access Apple Music?</h1>
<button id="allow">Allow</button> <button id="deny">Don't Allow</button>
<script>
  const referrer = ${JSON.stringify(referrer)};
  document.getElementById('deny').onclick = () => window.close();
  document.getElementById('allow').onclick = async () => {
    const res = await fetch('/woa/grant', { method: 'POST', body: JSON.stringify({ developerToken: ${JSON.stringify(info.thirdPartyToken)} }) });
    if (res.ok) window.opener?.postMessage({ musicUserToken: (await res.json()).musicUserToken }, referrer);
    setTimeout(() => window.close(), 100);
  };
</script></html>`;
    return html(200, page);
  }

  private appleMusic(path: string, req: IncomingMessage, json: (status: number, value: unknown) => void) {
    const developer = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
    if (!this.validDeveloperToken(developer)) return json(401, { errors: [{ status: '401', title: 'Unauthorized' }] });
    if (!this.appleUserTokens.has(String(req.headers['music-user-token'] ?? ''))) {
      return json(403, { errors: [{ status: '403', title: 'Forbidden', detail: 'Invalid or expired Music User Token' }] });
    }
    if (path === '/v1/me/storefront') return json(200, { data: [{ id: 'us', type: 'storefronts' }] });
    const song = /^\/v1\/catalog\/([a-z]{2})\/songs\/([^/]+)$/.exec(path);
    if (song && this.appleSongs.has(decodeURIComponent(song[2]!))) return json(200, { data: [{ id: song[2], type: 'songs' }] });
    return json(404, { errors: [{ status: '404', title: 'Resource Not Found' }] });
  }

  /** An ES256 developer token signed with the test MusicKit key, with its key id and team, not expired. */
  private validDeveloperToken(token: string): boolean {
    const [header, payload, signature] = token.split('.');
    if (!header || !payload || !signature) return false;
    try {
      const h = JSON.parse(Buffer.from(header, 'base64url').toString()) as { alg?: string; kid?: string };
      const p = JSON.parse(Buffer.from(payload, 'base64url').toString()) as { iss?: string; exp?: number };
      if (h.alg !== 'ES256' || h.kid !== this.apple.keyId || p.iss !== this.apple.teamId) return false;
      if (!p.exp || p.exp * 1000 < Date.now()) return false;
      return verify(
        'sha256',
        Buffer.from(`${header}.${payload}`),
        { key: this.appleKey, dsaEncoding: 'ieee-p1363' },
        Buffer.from(signature, 'base64url'),
      );
    } catch {
      return false;
    }
  }
}
