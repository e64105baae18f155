// What this listener is actually hearing, for play tracking (spec 002: the
// record's userProvider): the provider that plays the room's song, whether it
// is a preview, and the play's end time (which song of the room it is).

export interface Heard {
  /** The provider actually playing (spotify, apple, youtube, soundCloudPublic, audius, sevenDigital, uploadService). */
  provider: string;
  preview: boolean;
  /** The room's nowPlaying.endTime of the song heard. */
  endTime: number;
  songId?: string;
}

let current: Heard | undefined;
const listeners = new Set<(heard: Heard | undefined) => void>();

/** The provider this listener hears the room's song on now, if any. */
export function heardProvider(): Heard | undefined {
  return current;
}

/** Told on each change (a song starts on a provider, or stops). */
export function onHeardChange(listener: (heard: Heard | undefined) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function setHeard(next: Heard | undefined): void {
  if (current?.provider === next?.provider && current?.endTime === next?.endTime && current?.preview === next?.preview) return;
  current = next;
  for (const l of listeners) l(next);
}
