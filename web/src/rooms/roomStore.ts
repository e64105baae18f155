// The current-room store (spec 002 §3): the slug (lowercased) and a password
// typed for it, kept for this tab so a reload rejoins.
const KEY = 'spinroom.room';

interface Stored {
  slug: string;
  password?: string;
}

function read(): Stored | undefined {
  try {
    return JSON.parse(sessionStorage.getItem(KEY) ?? 'null') ?? undefined;
  } catch {
    return undefined;
  }
}

export function rememberRoomPassword(slug: string, password: string) {
  sessionStorage.setItem(KEY, JSON.stringify({ slug: slug.toLowerCase(), password }));
}

export function currentRoom(slug: string): Stored {
  const stored = read();
  return stored?.slug === slug.toLowerCase() ? stored : { slug: slug.toLowerCase() };
}

export function setCurrentRoom(slug: string) {
  const stored = read();
  sessionStorage.setItem(KEY, JSON.stringify(stored?.slug === slug ? stored : { slug }));
}

export function clearCurrentRoom() {
  sessionStorage.removeItem(KEY);
}
