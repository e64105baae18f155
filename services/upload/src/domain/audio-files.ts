import { AppError, badRequest } from '@spinroom/platform';

/** What ffprobe found in a file (media/probe.ts reads it). */
export interface ProbeResult {
  /** ffprobe's `format_name`, e.g. `mp3` or `mov,mp4,m4a,3gp,3g2,mj2`. */
  formatName: string;
  durationSeconds: number | null;
  streams: ProbedStream[];
  /** Format tags, then the first audio stream's (Ogg and WebM keep them there). */
  tags: Record<string, string>;
  /** Whether the start of the audio decodes (mostly) without errors. */
  decodes: boolean;
}

export interface ProbedStream {
  codecType: string;
  codecName: string;
  sampleRate: number;
  channels: number;
  /** Cover art in an MP3 or M4A is a one-picture video stream. */
  attachedPic: boolean;
}

/** An accepted kind of audio file: the types a client may declare and the containers ffprobe must find. */
export interface AudioFamily {
  label: string;
  contentTypes: string[];
  extensions: string[];
  containers: string[];
}

const MP4_CONTAINER = 'mov,mp4,m4a,3gp,3g2,mj2';

/**
 * The accepted uploads. The declared type (or, for `application/octet-stream`,
 * the file name's extension) picks a family, and the container ffprobe finds
 * must be one of that family's. `audio/aac` also takes M4A files, which many
 * tools label that way.
 */
export const AUDIO_FAMILIES: readonly AudioFamily[] = [
  { label: 'MP3', contentTypes: ['audio/mpeg', 'audio/mp3', 'audio/mpeg3', 'audio/x-mpeg-3'], extensions: ['mp3'], containers: ['mp3'] },
  { label: 'M4A', contentTypes: ['audio/mp4', 'audio/x-m4a', 'audio/m4a'], extensions: ['m4a'], containers: [MP4_CONTAINER] },
  { label: 'AAC', contentTypes: ['audio/aac', 'audio/x-aac', 'audio/aacp'], extensions: ['aac'], containers: ['aac', MP4_CONTAINER] },
  { label: 'WAV', contentTypes: ['audio/wav', 'audio/x-wav', 'audio/wave', 'audio/vnd.wave'], extensions: ['wav'], containers: ['wav'] },
  { label: 'FLAC', contentTypes: ['audio/flac', 'audio/x-flac'], extensions: ['flac'], containers: ['flac'] },
  {
    label: 'OGG',
    contentTypes: ['audio/ogg', 'audio/opus', 'audio/vorbis', 'application/ogg'],
    extensions: ['ogg', 'oga', 'opus'],
    containers: ['ogg'],
  },
  { label: 'AIFF', contentTypes: ['audio/aiff', 'audio/x-aiff'], extensions: ['aif', 'aiff'], containers: ['aiff'] },
  { label: 'WebM', contentTypes: ['audio/webm'], extensions: ['webm', 'weba'], containers: ['matroska,webm'] },
];

export const ACCEPTED_SUMMARY = 'MP3, M4A/AAC, WAV, FLAC, OGG/Opus, AIFF or WebM audio';
export const FILE_REQUIRED = 'A file is required in the form field "file"';
export const FILE_EMPTY = 'The file is empty';
export const NOT_AUDIO = 'The file is not an audio file';
export const CORRUPT_AUDIO = 'The audio file is corrupt or truncated';

export function tooLarge(maxBytes: number): AppError {
  return new AppError(413, `The file is larger than the ${formatBytes(maxBytes)} upload limit`);
}

export function unsupportedType(declared: string): AppError {
  return new AppError(415, `Unsupported file type ${declared || '(none)'}; upload ${ACCEPTED_SUMMARY}`);
}

function formatBytes(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  return mb >= 1 ? `${Number.isInteger(mb) ? mb : mb.toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`;
}

/** The family a file's declared content type (or name) puts it in; 415 for anything else. */
export function familyOf(contentType: string, fileName: string): AudioFamily {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  if (type === '' || type === 'application/octet-stream' || type === 'binary/octet-stream') {
    const extension = fileName.toLowerCase().match(/\.([a-z0-9]+)$/)?.[1] ?? '';
    const family = AUDIO_FAMILIES.find((f) => f.extensions.includes(extension));
    if (!family) throw unsupportedType(extension ? `.${extension}` : type);
    return family;
  }
  const family = AUDIO_FAMILIES.find((f) => f.contentTypes.includes(type));
  if (!family) throw unsupportedType(type);
  return family;
}

export interface AcceptedAudio {
  durationMs: number;
  container: string;
  tags: Record<string, string>;
}

/**
 * Whether a probed file is audio of its declared family: 415 when it is not
 * audio (or another format than declared), 400 when it is damaged.
 */
export function checkProbe(family: AudioFamily, declaredType: string, probe: ProbeResult | null): AcceptedAudio {
  if (!probe) throw new AppError(415, NOT_AUDIO);
  const audio = probe.streams.filter((s) => s.codecType === 'audio');
  const video = probe.streams.filter((s) => s.codecType === 'video' && !s.attachedPic);
  if (audio.length === 0 || video.length > 0) throw new AppError(415, NOT_AUDIO);
  if (!family.containers.includes(probe.formatName)) {
    const actual = AUDIO_FAMILIES.find((f) => f.containers.includes(probe.formatName));
    if (actual) throw new AppError(415, `The file's content (${actual.label}) does not match its type ${declaredType || family.label}`);
    throw unsupportedType(probe.formatName);
  }
  const first = audio[0]!;
  const duration = probe.durationSeconds;
  if (!probe.decodes || first.sampleRate <= 0 || first.channels <= 0 || duration === null || !Number.isFinite(duration) || duration <= 0) {
    throw badRequest(CORRUPT_AUDIO);
  }
  return { durationMs: Math.round(duration * 1000), container: probe.formatName, tags: probe.tags };
}
