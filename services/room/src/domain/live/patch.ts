import jsonpatch, { type Operation } from 'fast-json-patch';

/** Lists of the client state whose items carry a `uuid` (or are uuids). */
const KEYED_LISTS = new Set(['allUsers', 'audienceUsers', 'floorUsers', 'djs', 'visibleDjs', 'waitlist']);

const keyOf = (item: unknown): unknown => (typeof item === 'object' && item !== null && 'uuid' in item ? item.uuid : item);

/**
 * The RFC 6902 patch from one client state to the next. fast-json-patch's
 * diff compares arrays index by index, so one listener leaving the middle of
 * a room of thousands would rewrite every entry after them; the user lists
 * are diffed by uuid instead: the unchanged head and tail stay, the middle is
 * removed and re-added, and items kept are patched in place.
 */
export function diffClientState(previous: Record<string, unknown>, next: Record<string, unknown>): Operation[] {
  const ops: Operation[] = [];
  for (const key of Object.keys(previous)) {
    if (!(key in next)) ops.push({ op: 'remove', path: `/${key}` });
  }
  for (const [key, value] of Object.entries(next)) {
    if (!(key in previous)) {
      ops.push({ op: 'add', path: `/${key}`, value: structuredClone(value) });
      continue;
    }
    const before = previous[key];
    if (KEYED_LISTS.has(key) && Array.isArray(before) && Array.isArray(value)) ops.push(...diffKeyedList(`/${key}`, before, value));
    else ops.push(...prefixed(`/${key}`, jsonpatch.compare({ v: before } as object, { v: value } as object)));
  }
  return ops;
}

function diffKeyedList(path: string, a: unknown[], b: unknown[]): Operation[] {
  let start = 0;
  while (start < a.length && start < b.length && keyOf(a[start]) === keyOf(b[start])) start += 1;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && keyOf(a[endA - 1]) === keyOf(b[endB - 1])) {
    endA -= 1;
    endB -= 1;
  }
  const ops: Operation[] = [];
  // The middle: removed back to front (earlier indices stay valid), then the new items in order.
  for (let i = endA - 1; i >= start; i -= 1) ops.push({ op: 'remove', path: `${path}/${i}` });
  for (let j = start; j < endB; j += 1) ops.push({ op: 'add', path: `${path}/${j}`, value: structuredClone(b[j]) });
  // Items kept at the head and the tail, now at their new indices, patched in place.
  const kept: Array<[unknown, unknown, number]> = [];
  for (let i = 0; i < start; i += 1) kept.push([a[i], b[i], i]);
  for (let k = 0; k < a.length - endA; k += 1) kept.push([a[endA + k], b[endB + k], endB + k]);
  for (const [before, after, index] of kept) {
    ops.push(...prefixed(`${path}/${index}`, jsonpatch.compare({ v: before } as object, { v: after } as object)));
  }
  return ops;
}

/** Re-roots ops made on `{v: x}` at `path` (the wrapper lets a primitive or a whole value be replaced). */
function prefixed(path: string, ops: Operation[]): Operation[] {
  return ops.map((op) => ({ ...op, path: path + op.path.slice('/v'.length) }) as Operation);
}
