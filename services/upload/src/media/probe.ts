import type { ProbedStream, ProbeResult } from '../domain/audio-files.js';
import type { AudioProbe } from '../domain/songs.js';
import { runProcess } from './processes.js';

interface FfprobeJson {
  format?: { format_name?: string; duration?: string; tags?: Record<string, string> };
  streams?: {
    codec_type?: string;
    codec_name?: string;
    sample_rate?: string;
    channels?: number;
    disposition?: { attached_pic?: number };
    tags?: Record<string, string>;
  }[];
}

/** How much of the audio the decode check reads. */
const DECODE_CHECK_SECONDS = 60;
/** The share of frames that may fail to decode (ffmpeg's default, 2/3, lets half of random garbage through). */
const MAX_ERROR_RATE = 0.25;

/**
 * ffprobe on a local file: what it holds, or null when ffprobe cannot read it
 * as media at all. When it finds audio, ffmpeg also decodes the first minute:
 * a file where more than a quarter of the frames fail to decode (ffmpeg's
 * `-max_error_rate`; a few glitches pass) is reported as not decodable.
 * Both are quick (tens of milliseconds) and run while the upload call waits.
 */
export class FfmpegProbe implements AudioProbe {
  constructor(
    private readonly ffprobePath = 'ffprobe',
    private readonly ffmpegPath = 'ffmpeg',
    private readonly timeoutMs = 20_000,
  ) {}

  async probe(path: string, signal?: AbortSignal): Promise<ProbeResult | null> {
    const { code, stdout } = await runProcess(
      this.ffprobePath,
      ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', '-i', path],
      { signal, timeoutMs: this.timeoutMs },
    );
    if (code !== 0) return null;
    let json: FfprobeJson;
    try {
      json = JSON.parse(stdout) as FfprobeJson;
    } catch {
      return null;
    }
    if (!json.format?.format_name) return null;
    const streams: ProbedStream[] = (json.streams ?? []).map((s) => ({
      codecType: s.codec_type ?? 'unknown',
      codecName: s.codec_name ?? 'unknown',
      sampleRate: Number(s.sample_rate ?? 0) || 0,
      channels: s.channels ?? 0,
      attachedPic: s.disposition?.attached_pic === 1,
    }));
    const firstAudio = (json.streams ?? []).find((s) => s.codec_type === 'audio');
    const duration = json.format.duration === undefined ? null : Number(json.format.duration);
    return {
      formatName: json.format.format_name,
      durationSeconds: duration !== null && Number.isFinite(duration) ? duration : null,
      streams,
      tags: { ...firstAudio?.tags, ...json.format.tags },
      decodes: firstAudio ? await this.decodes(path, signal) : false,
    };
  }

  private async decodes(path: string, signal?: AbortSignal): Promise<boolean> {
    const { code } = await runProcess(
      this.ffmpegPath,
      [
        '-nostdin',
        '-hide_banner',
        '-v',
        'error',
        '-max_error_rate',
        String(MAX_ERROR_RATE),
        '-t',
        String(DECODE_CHECK_SECONDS),
        '-i',
        path,
        '-map',
        '0:a:0',
        '-f',
        'null',
        '-',
      ],
      { signal, timeoutMs: this.timeoutMs },
    );
    return code === 0;
  }
}
