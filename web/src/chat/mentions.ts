// Mentions in chat text. The original's clients and bots write a mention as an
// inline token, `<@uid:USERUUID>` (spec 002 "Inline tokens: a user mention by
// uid"; CometChat's form), and list it in metadata.chatMessage.mentions as
// {start, userNickname, userUuid}. Messages this client sent before tokens
// carry plain `@nickname` text with such a mention at its offset: both read as
// mentions. The chat box shows `@nickname`; what is sent carries the token.

export interface Person {
  uuid: string;
  nickname: string;
}

export interface Mention {
  start: number;
  userNickname: string;
  userUuid: string;
}

export type Segment = { kind: 'text'; text: string } | { kind: 'mention'; uuid: string; nickname: string | undefined };

/** The chat service keeps at most 50 mentions in a message's metadata. */
export const MAX_MENTIONS = 50;
/** At most this many people are offered while completing a mention. */
export const MAX_SUGGESTIONS = 8;

const TOKEN = /<@uid:([^<>\s]{1,64})>/g;
const WORD = /[\p{L}\p{N}_]/u;

export const mentionToken = (uuid: string) => `<@uid:${uuid}>`;

/**
 * The text cut into plain runs and mentions: every `<@uid:...>` token, and the
 * metadata mentions whose offset holds `@nickname` as plain text.
 */
export function segments(text: string, mentions: readonly Mention[] = []): Segment[] {
  const found: Array<{ start: number; end: number; uuid: string; nickname: string | undefined }> = [];
  for (const match of text.matchAll(TOKEN)) {
    found.push({ start: match.index, end: match.index + match[0].length, uuid: match[1]!, nickname: undefined });
  }
  for (const m of mentions) {
    const plain = `@${m.userNickname}`;
    if (!m.userNickname || text.slice(m.start, m.start + plain.length) !== plain) continue;
    const end = m.start + plain.length;
    if (found.some((f) => m.start < f.end && f.start < end)) continue;
    found.push({ start: m.start, end, uuid: m.userUuid, nickname: m.userNickname });
  }
  found.sort((a, b) => a.start - b.start);
  const out: Segment[] = [];
  let at = 0;
  for (const f of found) {
    if (f.start > at) out.push({ kind: 'text', text: text.slice(at, f.start) });
    out.push({ kind: 'mention', uuid: f.uuid, nickname: f.nickname });
    at = f.end;
  }
  if (at < text.length) out.push({ kind: 'text', text: text.slice(at) });
  return out;
}

/**
 * Who is called what, for showing mentions: people in the room first, then the
 * nicknames messages carry (their mentions' and their authors').
 */
export function nicknameDirectory(
  people: readonly Person[],
  messages: ReadonlyArray<{ userUuid: string; userName: string; mentions: readonly Mention[] }> = [],
): Map<string, string> {
  const names = new Map<string, string>();
  for (const p of people) if (p.nickname && !names.has(p.uuid)) names.set(p.uuid, p.nickname);
  for (let i = messages.length - 1; i >= 0; i -= 1) {
    const m = messages[i]!;
    if (m.userUuid && m.userName && !names.has(m.userUuid)) names.set(m.userUuid, m.userName);
    for (const mention of m.mentions) {
      if (mention.userUuid && mention.userNickname && !names.has(mention.userUuid)) names.set(mention.userUuid, mention.userNickname);
    }
  }
  return names;
}

/** A mention's nickname: the directory's, else the one the message carried, else the fallback (e.g. "someone"). */
export function mentionName(segment: Extract<Segment, { kind: 'mention' }>, names: Map<string, string>, fallback: string): string {
  return names.get(segment.uuid) ?? segment.nickname ?? fallback;
}

/** The text as people read it: each mention as `@nickname`. */
export function plainText(text: string, mentions: readonly Mention[], names: Map<string, string>, fallback: string): string {
  return segments(text, mentions)
    .map((s) => (s.kind === 'text' ? s.text : `@${mentionName(s, names, fallback)}`))
    .join('');
}

/** Whether a message mentions this user (by token or in its metadata). */
export function mentionsUser(message: { text: string; mentions: readonly Mention[] }, userUuid: string | null | undefined): boolean {
  if (!userUuid) return false;
  if (message.mentions.some((m) => m.userUuid === userUuid)) return true;
  return segments(message.text).some((s) => s.kind === 'mention' && s.uuid === userUuid);
}

/**
 * The mention being typed: an `@` at the start or after a space or an opening
 * bracket, then letters up to the caret (none yet is a query too).
 */
export function mentionQuery(text: string, caret: number): { start: number; query: string } | undefined {
  const before = text.slice(0, caret);
  const match = /(^|[\s([{])@([^\s@<>]{0,32})$/u.exec(before);
  if (!match) return undefined;
  return { start: match.index + match[1]!.length, query: match[2]! };
}

const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLocaleLowerCase();

/**
 * People matching what follows the `@` (case and accents aside): names
 * starting with it first, then names containing it, each alphabetically;
 * never the writer, each person once, at most `limit`.
 */
export function suggestMentions(query: string, people: readonly Person[], meUuid: string | null, limit = MAX_SUGGESTIONS): Person[] {
  const q = fold(query);
  const seen = new Set<string>();
  const starts: Person[] = [];
  const contains: Person[] = [];
  for (const p of people) {
    if (!p.nickname || p.uuid === meUuid || seen.has(p.uuid)) continue;
    seen.add(p.uuid);
    const name = fold(p.nickname);
    if (name.startsWith(q)) starts.push(p);
    else if (q && name.includes(q)) contains.push(p);
  }
  const byName = (a: Person, b: Person) => a.nickname.localeCompare(b.nickname);
  return [...starts.sort(byName), ...contains.sort(byName)].slice(0, limit);
}

/** The box's text with the mention being typed (from `start` to the caret) replaced by `@nickname ` and the caret after it. */
export function insertMention(text: string, start: number, caret: number, nickname: string): { text: string; caret: number } {
  const after = text.slice(caret);
  const inserted = `@${nickname}${after.startsWith(' ') ? '' : ' '}`;
  return { text: text.slice(0, start) + inserted + after, caret: start + inserted.length + (after.startsWith(' ') ? 1 : 0) };
}

/**
 * The text to send: each `@nickname` of someone picked from the suggestions
 * or in the room becomes their `<@uid:...>` token (the longest name that fits,
 * picked people before others of the same name; only at a word start and up to
 * a word end), with the metadata mentions at the tokens' offsets. Tokens
 * already in the text are listed too.
 */
export function encodeMentions(
  text: string,
  people: readonly Person[],
  picked: readonly Person[] = [],
): { text: string; mentions: Mention[] } {
  const candidates: Person[] = [];
  const names = new Set<string>();
  for (const p of [...picked, ...people]) {
    if (!p.nickname || names.has(p.nickname)) continue;
    names.add(p.nickname);
    candidates.push(p);
  }
  candidates.sort((a, b) => b.nickname.length - a.nickname.length);
  let out = '';
  const mentions: Mention[] = [];
  let i = 0;
  while (i < text.length) {
    const token = text[i] === '<' ? /^<@uid:([^<>\s]{1,64})>/.exec(text.slice(i)) : null;
    if (token) {
      const uuid = token[1]!;
      const nickname = [...picked, ...people].find((p) => p.uuid === uuid)?.nickname ?? '';
      mentions.push({ start: out.length, userNickname: nickname, userUuid: uuid });
      out += token[0];
      i += token[0].length;
      continue;
    }
    if (text[i] === '@' && (i === 0 || !WORD.test(text[i - 1]!))) {
      const person = candidates.find((p) => text.startsWith(p.nickname, i + 1) && !WORD.test(text[i + 1 + p.nickname.length] ?? ''));
      if (person) {
        mentions.push({ start: out.length, userNickname: person.nickname, userUuid: person.uuid });
        out += mentionToken(person.uuid);
        i += 1 + person.nickname.length;
        continue;
      }
    }
    out += text[i];
    i += 1;
  }
  return { text: out, mentions: mentions.slice(0, MAX_MENTIONS) };
}

/**
 * A sent text back in the box (to edit it): known mentions as `@nickname`, with
 * the people they name, so sending it again makes the same tokens; a token
 * whose person is unknown stays as it is.
 */
export function decodeMentions(text: string, names: Map<string, string>): { text: string; picked: Person[] } {
  const picked: Person[] = [];
  const decoded = text.replace(TOKEN, (token, uuid: string) => {
    const nickname = names.get(uuid);
    if (!nickname) return token;
    if (!picked.some((p) => p.uuid === uuid)) picked.push({ uuid, nickname });
    return `@${nickname}`;
  });
  return { text: decoded, picked };
}
