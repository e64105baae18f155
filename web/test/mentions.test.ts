import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lengthCheck, MAX_MESSAGE_LENGTH } from '../src/chat/chatState';
import {
  decodeMentions,
  encodeMentions,
  insertMention,
  mentionQuery,
  mentionsUser,
  mentionToken,
  nicknameDirectory,
  plainText,
  segments,
  suggestMentions,
} from '../src/chat/mentions';

const ANA = 'a0000000-0000-4000-8000-00000000000a';
const BO = 'b0000000-0000-4000-8000-00000000000b';
const people = [
  { uuid: ANA, nickname: 'Ana' },
  { uuid: BO, nickname: 'Bo' },
  { uuid: 'c', nickname: 'Ana María' },
  { uuid: 'd', nickname: 'Álvaro' },
  { uuid: 'e', nickname: 'Mariana' },
];

describe('mention tokens in chat text', () => {
  it('cuts text into plain runs and <@uid:...> mentions', () => {
    expect(segments(`hi <@uid:${BO}>, and <@uid:${ANA}>!`)).toEqual([
      { kind: 'text', text: 'hi ' },
      { kind: 'mention', uuid: BO, nickname: undefined },
      { kind: 'text', text: ', and ' },
      { kind: 'mention', uuid: ANA, nickname: undefined },
      { kind: 'text', text: '!' },
    ]);
    expect(segments(`<@uid:${BO}>`)).toEqual([{ kind: 'mention', uuid: BO, nickname: undefined }]);
  });

  it('leaves what is not a token as text', () => {
    for (const text of ['<@uid:>', '<@uid:a b>', '<@all:everyone>', 'a <@uid:x', 'mail@example.com']) {
      expect(segments(text)).toEqual([{ kind: 'text', text }]);
    }
  });

  it("reads older messages' plain @nickname mentions at their metadata offsets, and ignores offsets that do not hold the name", () => {
    expect(
      segments('yo @Bo!', [
        { start: 3, userNickname: 'Bo', userUuid: BO },
        { start: 0, userNickname: 'Ana', userUuid: ANA },
      ]),
    ).toEqual([
      { kind: 'text', text: 'yo ' },
      { kind: 'mention', uuid: BO, nickname: 'Bo' },
      { kind: 'text', text: '!' },
    ]);
  });

  it('shows each mention as @nickname: the room first, then names messages carry, then a fallback', () => {
    const names = nicknameDirectory(people.slice(0, 1), [
      { userUuid: BO, userName: 'Bo', mentions: [] },
      { userUuid: ANA, userName: 'Old Ana', mentions: [{ start: 0, userNickname: 'Cy', userUuid: 'cy' }] },
    ]);
    expect(plainText(`<@uid:${ANA}> <@uid:${BO}> <@uid:cy> <@uid:zz>`, [], names, 'someone')).toBe('@Ana @Bo @Cy @someone');
  });

  it('knows when a message mentions a user, by token or metadata', () => {
    expect(mentionsUser({ text: `hey <@uid:${BO}>`, mentions: [] }, BO)).toBe(true);
    expect(mentionsUser({ text: 'hey @Bo', mentions: [{ start: 4, userNickname: 'Bo', userUuid: BO }] }, BO)).toBe(true);
    expect(mentionsUser({ text: `hey <@uid:${ANA}> @Bo`, mentions: [] }, BO)).toBe(false);
    expect(mentionsUser({ text: `hey <@uid:${BO}>`, mentions: [] }, null)).toBe(false);
  });
});

describe('sending mentions', () => {
  it('turns @nickname of someone in the room into their token, with metadata at the token', () => {
    const sent = encodeMentions('hi @Bo and @Ana!', people);
    expect(sent.text).toBe(`hi ${mentionToken(BO)} and ${mentionToken(ANA)}!`);
    expect(sent.mentions).toEqual([
      { start: 3, userNickname: 'Bo', userUuid: BO },
      { start: 3 + mentionToken(BO).length + 5, userNickname: 'Ana', userUuid: ANA },
    ]);
    expect(sent.text.slice(sent.mentions[1]!.start)).toMatch(/^<@uid:a0000000/);
  });

  it('takes the longest name that fits, only from a word start to a word end', () => {
    expect(encodeMentions('@Ana María hola', people).text).toBe('<@uid:c> hola');
    expect(encodeMentions('@Anabel, bo@Bo.com, @Bo_x', people).text).toBe('@Anabel, bo@Bo.com, @Bo_x');
    expect(encodeMentions('(@Bo)', people).text).toBe(`(${mentionToken(BO)})`);
  });

  it('prefers the person picked from the suggestions over another of the same name, and keeps tokens already written', () => {
    const twin = { uuid: 'twin', nickname: 'Bo' };
    expect(encodeMentions('@Bo', people, [twin]).text).toBe('<@uid:twin>');
    expect(encodeMentions(`x <@uid:${ANA}>`, people)).toEqual({
      text: `x <@uid:${ANA}>`,
      mentions: [{ start: 2, userNickname: 'Ana', userUuid: ANA }],
    });
  });

  it('puts a sent text back in the box as @nickname, and sending it again gives the same text', () => {
    const names = nicknameDirectory(people);
    const sent = `ok <@uid:${BO}> <@uid:gone>`;
    const box = decodeMentions(sent, names);
    expect(box).toEqual({ text: 'ok @Bo <@uid:gone>', picked: [{ uuid: BO, nickname: 'Bo' }] });
    expect(encodeMentions(box.text, people, box.picked).text).toBe(sent);
  });
});

describe('completing a mention', () => {
  it('finds the @ being typed before the caret', () => {
    expect(mentionQuery('hi @An', 6)).toEqual({ start: 3, query: 'An' });
    expect(mentionQuery('@', 1)).toEqual({ start: 0, query: '' });
    expect(mentionQuery('(@b', 3)).toEqual({ start: 1, query: 'b' });
    expect(mentionQuery('hi @An there', 12)).toBeUndefined();
    expect(mentionQuery('mail@ex', 7)).toBeUndefined();
    expect(mentionQuery('hi @An', 2)).toBeUndefined();
  });

  it('offers names starting with the letters first, then containing them, ignoring case and accents, never the writer', () => {
    expect(suggestMentions('an', people, null).map((p) => p.nickname)).toEqual(['Ana', 'Ana María', 'Mariana']);
    expect(suggestMentions('alv', people, null).map((p) => p.nickname)).toEqual(['Álvaro']);
    expect(suggestMentions('', people, BO).map((p) => p.nickname)).toEqual(['Álvaro', 'Ana', 'Ana María', 'Mariana']);
    expect(suggestMentions('a', people, null, 2)).toHaveLength(2);
    expect(suggestMentions('zz', people, null)).toEqual([]);
  });

  it('replaces the typed @letters with @nickname and a space, the caret after it', () => {
    expect(insertMention('hi @an', 3, 6, 'Ana María')).toEqual({ text: 'hi @Ana María ', caret: 14 });
    expect(insertMention('hi @an there', 3, 6, 'Ana')).toEqual({ text: 'hi @Ana there', caret: 8 });
  });
});

describe('the length rule', () => {
  it("is the chat service's limit", () => {
    // The service's module needs the platform (not in a DOM): its constant is read from the source.
    const source = readFileSync(join(import.meta.dirname, '../../services/chat/src/domain/chat-message.ts'), 'utf8');
    expect(MAX_MESSAGE_LENGTH).toBe(Number(/export const MAX_TEXT_LENGTH = (\d+);/.exec(source)?.[1]));
  });

  it('counts the text as sent; shows the count near the limit and refuses past it', () => {
    expect(lengthCheck('x'.repeat(1799))).toEqual({ count: 1799, left: 201, show: false, over: false });
    expect(lengthCheck('x'.repeat(1800))).toMatchObject({ show: true, over: false });
    expect(lengthCheck('x'.repeat(2000))).toMatchObject({ left: 0, over: false });
    expect(lengthCheck('x'.repeat(5000))).toEqual({ count: 5000, left: -3000, show: true, over: true });
    // A mention is its token on the wire.
    const sent = encodeMentions(`${'x'.repeat(1990)} @Ana`, people).text;
    expect(lengthCheck(sent).over).toBe(true);
  });
});
