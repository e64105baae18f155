import { describe, expect, it } from 'vitest';
import { CHAT_CAP, editableMessage, fromComet, mergeMessages, toggleReaction, type ChatMessage } from '../src/chat/chatState';

let n = 0;
const msg = (overrides: Partial<ChatMessage> = {}): ChatMessage => {
  n += 1;
  return {
    id: String(n),
    uuid: `u-${n}`,
    text: `hello ${n}`,
    userUuid: 'ana',
    userName: 'Ana',
    avatarId: 'raver',
    color: '#fff',
    sentAt: n * 1000,
    type: 'user',
    reactions: {},
    mentions: [],
    ...overrides,
  };
};

describe('chat merge', () => {
  it('drops duplicates by uuid, the incoming copy replacing the local one', () => {
    const local = msg({ id: 'temp-x', uuid: 'x', pending: true });
    const merged = mergeMessages(
      [local],
      [
        { ...local, id: '41', pending: undefined },
        { ...local, id: '41' },
      ],
    );
    expect(merged).toHaveLength(1);
    expect(merged[0]).toMatchObject({ id: '41', pending: false });
  });

  it('caps what is new at 300, keeping the newest', () => {
    const incoming = Array.from({ length: 350 }, () => msg());
    const merged = mergeMessages([], incoming);
    expect(merged).toHaveLength(CHAT_CAP);
    expect(merged[0]!.uuid).toBe(incoming[50]!.uuid);
    expect(merged.at(-1)!.uuid).toBe(incoming[349]!.uuid);
  });

  it('keeps messages in time order and collapses consecutive identical room notices', () => {
    const a = msg({ type: 'room', text: 'Welcome' });
    const b = msg({ type: 'room', text: 'Welcome' });
    const c = msg();
    const d = msg({ type: 'room', text: 'Welcome' });
    const merged = mergeMessages([c], [d, b, a]);
    expect(merged.map((m) => [m.type, m.repeats ?? 1])).toEqual([
      ['room', 2],
      ['user', 1],
      ['room', 1],
    ]);
  });

  it('reads a CometChat message as spec 002 chat message', () => {
    const m = fromComet({
      id: '7',
      sentAt: 1_700_000_000,
      data: {
        text: 'hi @Bo',
        metadata: {
          chatMessage: {
            uuid: 'abc',
            userUuid: 'u',
            userName: 'Ana',
            avatarId: 'raver',
            color: '#f0f',
            type: 'user',
            mentions: [{ start: 3, userNickname: 'Bo', userUuid: 'b' }],
            reactions: { '🔥': [{ userUUID: 'b' }] },
          },
        },
      },
    });
    expect(m).toMatchObject({ id: '7', uuid: 'abc', text: 'hi @Bo', sentAt: 1_700_000_000_000, reactions: { '🔥': [{ userUUID: 'b' }] } });
  });
});

describe('chat rules', () => {
  it('lets the last own text message be edited within 20 s only', () => {
    const mine = msg({ userUuid: 'me', sentAt: 100_000 });
    const list = [msg(), mine, msg({ userUuid: 'other', sentAt: 101_000 })];
    expect(editableMessage(list, 'me', 110_000)?.uuid).toBe(mine.uuid);
    expect(editableMessage(list, 'me', 121_000)).toBeUndefined();
    expect(editableMessage([msg({ userUuid: 'me', id: 'temp-1', sentAt: 100_000 })], 'me', 101_000)).toBeUndefined();
  });

  it('toggles a reaction per user', () => {
    const m = msg();
    const on = toggleReaction(m, '👍', { userUUID: 'me' });
    expect(on.reactions['👍']).toEqual([{ userUUID: 'me' }]);
    expect(toggleReaction(on, '👍', { userUUID: 'me' }).reactions['👍']).toBeUndefined();
  });
});
