import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface DemoSong {
  file: string;
  trackName: string;
  artistName: string;
  genre: string;
}

// Short pieces made with ffmpeg's own synthesizers, so the demo needs no
// outside audio. Each is an arpeggio over a chord, with a slow tremolo.
const DEMO_SONGS: Array<{ trackName: string; artistName: string; genre: string; root: number; steps: number[]; bpm: number }> = [
  { trackName: 'First Light', artistName: 'Spinroom House Band', genre: 'Ambient', root: 220, steps: [0, 4, 7, 12], bpm: 96 },
  { trackName: 'Night Bus', artistName: 'Spinroom House Band', genre: 'Electronic', root: 196, steps: [0, 3, 7, 10], bpm: 120 },
  { trackName: 'Minor Orbit', artistName: 'The Oscillators', genre: 'Electronic', root: 174.61, steps: [0, 3, 7, 12, 15], bpm: 128 },
  { trackName: 'Warm Static', artistName: 'The Oscillators', genre: 'Lo-fi', root: 261.63, steps: [0, 4, 7, 11], bpm: 84 },
  { trackName: 'Sunday Sine', artistName: 'Lab Choir', genre: 'Ambient', root: 293.66, steps: [0, 5, 7, 12], bpm: 72 },
];
export const DEMO_SONG_SECONDS = 40;

/** Writes the demo songs (MP3 with title, artist and genre tags) once into `dir`. */
export async function generateDemoSongs(dir: string): Promise<DemoSong[]> {
  mkdirSync(dir, { recursive: true });
  const songs: DemoSong[] = [];
  for (const [index, song] of DEMO_SONGS.entries()) {
    const file = join(dir, `demo-${index + 1}.mp3`);
    if (!existsSync(file)) {
      const notes = song.steps.length;
      const beat = 60 / song.bpm / 2; // eighth notes
      const freq = `${song.root}*pow(2,(${arpeggioExpression(song.steps, notes, beat)})/12)`;
      const expression = `0.35*sin(2*PI*t*${freq})*(0.75+0.25*sin(2*PI*t*0.5))+0.12*sin(2*PI*t*${song.root / 2})`;
      await run('ffmpeg', [
        '-hide_banner',
        '-loglevel',
        'error',
        '-y',
        // Commas inside the expression would split the filter graph: escape them.
        '-f',
        'lavfi',
        '-i',
        `aevalsrc=${expression.replaceAll(',', '\\,')}:s=44100:d=${DEMO_SONG_SECONDS}`,
        '-af',
        `afade=t=in:d=1,afade=t=out:st=${DEMO_SONG_SECONDS - 2}:d=2`,
        '-metadata',
        `title=${song.trackName}`,
        '-metadata',
        `artist=${song.artistName}`,
        '-metadata',
        `genre=${song.genre}`,
        '-codec:a',
        'libmp3lame',
        '-b:a',
        '128k',
        file,
      ]);
    }
    songs.push({ file, trackName: song.trackName, artistName: song.artistName, genre: song.genre });
  }
  return songs;
}

/** The semitone step at time t: cycles through the chord's notes, one per eighth note. */
function arpeggioExpression(steps: number[], notes: number, beat: number): string {
  // A chain of if(eq(k,i),step_i,...) on k = floor(t/beat) mod notes.
  const k = `mod(floor(t/${beat.toFixed(4)}),${notes})`;
  return steps.reduceRight((rest, step, i) => `if(eq(${k},${i}),${step},${rest})`, '0');
}

/** Reads a generated song into a multipart-ready Blob. */
export function songBlob(song: DemoSong): Blob {
  return new Blob([readFileSync(song.file)], { type: 'audio/mpeg' });
}
