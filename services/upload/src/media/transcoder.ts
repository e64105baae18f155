import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { HLS } from '../domain/hls.js';
import { runProcess } from './processes.js';

export interface TranscodeRequest {
  inputPath: string;
  /** An empty folder for the playlist and segments. */
  outputDir: string;
  /** Where the key and key-info files may be written (kept out of outputDir). */
  secretsDir: string;
  key: Buffer;
  iv: Buffer;
  signal?: AbortSignal;
  timeoutMs?: number;
}

/** Turns an audio file into AES-128 encrypted HLS. */
export interface Transcoder {
  transcode(request: TranscodeRequest): Promise<void>;
}

/**
 * ffmpeg: the first audio stream re-encoded to AAC-LC stereo 44.1 kHz at
 * 160 kb/s, MPEG-TS segments of about 6 s, encrypted with the song's key and
 * IV (`-hls_key_info_file`), a VOD playlist whose key URI is a placeholder the
 * service replaces for each caller.
 */
export class FfmpegTranscoder implements Transcoder {
  constructor(
    private readonly ffmpegPath = 'ffmpeg',
    /** `-readrate`: caps input reading at this multiple of real time. */
    private readonly readrate?: number,
  ) {}

  async transcode(request: TranscodeRequest): Promise<void> {
    await mkdir(request.outputDir, { recursive: true });
    await mkdir(request.secretsDir, { recursive: true, mode: 0o700 });
    const keyPath = join(request.secretsDir, 'hls.key');
    const keyInfoPath = join(request.secretsDir, 'hls.keyinfo');
    await writeFile(keyPath, request.key, { mode: 0o600 });
    await writeFile(keyInfoPath, `${HLS.keyUriPlaceholder}\n${keyPath}\n${request.iv.toString('hex')}\n`, { mode: 0o600 });

    const args = [
      '-nostdin',
      '-hide_banner',
      '-loglevel',
      'error',
      ...(this.readrate ? ['-readrate', String(this.readrate)] : []),
      '-i',
      request.inputPath,
      '-map',
      '0:a:0',
      '-vn',
      '-sn',
      '-dn',
      '-map_metadata',
      '-1',
      '-c:a',
      'aac',
      '-b:a',
      HLS.audioBitrate,
      '-ac',
      '2',
      '-ar',
      '44100',
      '-f',
      'hls',
      '-hls_time',
      String(HLS.segmentSeconds),
      '-hls_playlist_type',
      'vod',
      '-hls_segment_type',
      'mpegts',
      '-hls_key_info_file',
      keyInfoPath,
      '-hls_segment_filename',
      join(request.outputDir, HLS.segmentPattern),
      join(request.outputDir, HLS.playlistName),
    ];
    const { code, stderr } = await runProcess(this.ffmpegPath, args, { signal: request.signal, timeoutMs: request.timeoutMs });
    if (code !== 0) throw new Error(`ffmpeg exited with code ${code}: ${stderr.split('\n').slice(-3).join(' | ')}`);
  }
}
