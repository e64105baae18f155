import { randomInt } from 'node:crypto';

/** Moves the item at `from` to `to` (clamped), keeping the order of the rest. */
export function moveItem<T>(items: readonly T[], from: number, to: number): T[] {
  const next = [...items];
  const [item] = next.splice(from, 1);
  if (item === undefined) return next;
  next.splice(Math.max(0, Math.min(to, next.length)), 0, item);
  return next;
}

/** A uniform shuffle (Fisher-Yates with a cryptographic source, so it cannot be predicted). */
export function shuffle<T>(items: readonly T[]): T[] {
  const next = [...items];
  for (let i = next.length - 1; i > 0; i -= 1) {
    const j = randomInt(i + 1);
    [next[i], next[j]] = [next[j]!, next[i]!];
  }
  return next;
}
