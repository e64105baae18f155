import type { ClientRoomState } from './state.js';

/**
 * The client state as JSON for a join's answer, from pieces serialized once:
 * each user's entry in the lists and in `allUserData` keeps its JSON while the
 * object is the same (a join or a leave leaves the others' objects alone;
 * the rules' copies make new ones, serialized again once). The same text as
 * `JSON.stringify` gives.
 */
const pieces = new WeakMap<object, string>();

function piece(value: object): string {
  let json = pieces.get(value);
  if (json === undefined) {
    json = JSON.stringify(value);
    pieces.set(value, json);
  }
  return json;
}

const LISTS = new Set(['allUsers', 'audienceUsers', 'floorUsers']);

/** `state` as joinRoom answers it (`allUserData` empty) and `allUserData` apart. */
export function clientStateJson(client: ClientRoomState): { stateJson: string; allUserDataJson: string } {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(client)) {
    if (value === undefined) continue;
    let json: string;
    if (key === 'allUserData') json = '{}';
    else if (LISTS.has(key) && Array.isArray(value)) json = `[${(value as object[]).map(piece).join(',')}]`;
    else json = JSON.stringify(value);
    parts.push(`${JSON.stringify(key)}:${json}`);
  }
  const users = Object.entries(client.allUserData).map(([uuid, data]) => `${JSON.stringify(uuid)}:${piece(data)}`);
  return { stateJson: `{${parts.join(',')}}`, allUserDataJson: `{${users.join(',')}}` };
}
