import { describe, expect, it } from 'vitest';
import {
  checkEditable,
  checkEnvelope,
  checkValid,
  composeChatMessage,
  consumableChatMessage,
  EDIT_WINDOW_MS,
  MAX_TEXT_LENGTH,
  messageView,
  toggleReaction,
  type StoredMessage,
} from '../src/domain/chat-message.js';

const sender = {
  uid: '11111111-1111-4111-8111-111111111111',
  name: 'Real Name',
  avatar: 'avatar-7',
  color: '#AA00FF',
  badges: ['VERIFIED'],
};
const now = new Date('2026-11-23T10:00:00Z');

const stored = (overrides: Partial<StoredMessage> = {}): StoredMessage => ({
  id: '42',
  receiver: '22222222-2222-4222-8222-222222222222',
  receiverType: 'group',
  sender: sender.uid,
  type: 'text',
  category: 'message',
  text: '/play',
  attachments: [],
  chatMessage: { message: '/play', userUuid: sender.uid, userName: sender.name, avatarId: sender.avatar },
  senderEntity: { uid: sender.uid, name: sender.name, avatar: sender.avatar },
  sentAt: now,
  updatedAt: now,
  editedAt: null,
  ...overrides,
});

describe('chat message validity (spec 002)', () => {
  const valid = (text: string, chatMessage: Record<string, unknown>, attachments: StoredMessage['attachments'] = []) =>
    checkValid({ text, chatMessage: { userUuid: 'u', userName: 'n', avatarId: 'a', ...chatMessage }, attachments });

  it('accepts text, or both an image and its media', () => {
    expect(() => valid('hello', {})).not.toThrow();
    expect(() => valid('', { imageUrls: ['https://media.example/x.gif'], media: { kind: 'gif' } })).not.toThrow();
    expect(() => valid('', { imageUrls: ['https://media.example/x.gif'] })).toThrow(/image and its media/);
    expect(() => valid('   ', {})).toThrow(/needs text/);
    expect(() =>
      valid('', {}, [{ url: 'https://media.example/a.png', name: 'a.png', mimeType: 'image/png', extension: 'png', size: 1 }]),
    ).not.toThrow();
  });

  it('refuses over-long text and non-http(s) image URLs', () => {
    expect(() => valid('x'.repeat(MAX_TEXT_LENGTH), {})).not.toThrow();
    expect(() => valid('x'.repeat(MAX_TEXT_LENGTH + 1), {})).toThrow(expect.objectContaining({ status: 400 }));
    expect(() => valid('hi', { imageUrls: ['javascript:alert(1)'] })).toThrow(/http\(s\)/);
    expect(() => valid('hi', { imageUrls: ['data:image/png;base64,AAAA'] })).toThrow(/http\(s\)/);
    expect(() => valid('', {}, [{ url: 'file:///etc/passwd', name: '', mimeType: '', extension: '', size: 0 }])).toThrow(/http\(s\)/);
  });

  it('needs user id, name and avatar unless a room notice', () => {
    expect(() => checkValid({ text: 'hi', chatMessage: { userUuid: 'u' }, attachments: [] })).toThrow(/user id, name and avatar/);
    expect(() => checkValid({ text: 'hi', chatMessage: { type: 'room' }, attachments: [] })).not.toThrow();
  });

  it('takes a room group or a user as receiver, messages only, text or image', () => {
    const input = { type: 'text', receiverType: 'user', category: 'message', receiver: 'x', text: 'hi', attachments: [], chatMessage: {} };
    expect(checkEnvelope(input)).toEqual({ type: 'text', receiverType: 'user' });
    expect(checkEnvelope({ ...input, receiverType: 'group', type: 'image' })).toEqual({ type: 'image', receiverType: 'group' });
    expect(() => checkEnvelope({ ...input, receiverType: 'channel' })).toThrow(
      expect.objectContaining({ status: 400, code: 'ERR_BAD_REQUEST', message: 'receiverType must be "group" or "user"' }),
    );
    expect(() => checkEnvelope({ ...input, category: 'action' })).toThrow(/category must be/);
    expect(() => checkEnvelope({ ...input, receiverType: 'group', type: 'video' })).toThrow(/type must be/);
  });
});

describe("identity is the server's", () => {
  it('overrides whatever name, avatar, colour, badges and uuid the client sent, keeping the text as written', () => {
    const composed = composeChatMessage({
      text: '/play  Song  ',
      chatMessage: {
        message: '/play  Song  ',
        userUuid: '99999999-9999-4999-8999-999999999999',
        userName: 'Admin',
        avatarId: 'fake',
        color: '#000000',
        badges: ['STAFF'],
        uuid: 'client-uuid-1',
        mentions: [{ start: 0, userNickname: 'dj', userUuid: 'abc' }],
        reportIdentifier: 'dropped',
      },
      sender,
      now,
    });
    expect(composed).toMatchObject({
      message: '/play  Song  ',
      userUuid: sender.uid,
      userName: 'Real Name',
      avatarId: 'avatar-7',
      color: '#AA00FF',
      badges: ['VERIFIED'],
      uuid: 'client-uuid-1',
      type: 'user',
      date: now.toISOString(),
      mentions: [{ start: 0, userNickname: 'dj', userUuid: 'abc' }],
    });
    expect(composed).not.toHaveProperty('reportIdentifier');
  });

  it('fills message from the text and a uuid when missing; refuses malformed mentions', () => {
    const composed = composeChatMessage({ text: 'hello', chatMessage: {}, sender, now });
    expect(composed.message).toBe('hello');
    expect(composed.uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(() => composeChatMessage({ text: 'x', chatMessage: { mentions: [{ start: 'a' }] }, sender, now })).toThrow(/mention/);
  });
});

describe('a consumable bought in a room, as its chat message', () => {
  it("is the buyer's message with the consumable's name as text, and `consumable` only the server sets", () => {
    const notice = {
      purchaseId: '55555555-5555-4555-8555-555555555555',
      roomUuid: '66666666-6666-4666-8666-666666666666',
      userUuid: sender.uid,
      consumable: { id: '77777777-7777-4777-8777-777777777777', name: 'Confetti', tokenCost: 15, displayType: 'cover' },
      purchasedAt: now,
    };
    expect(consumableChatMessage(notice, sender, now)).toMatchObject({
      message: 'Confetti',
      uuid: notice.purchaseId,
      type: 'user',
      userUuid: sender.uid,
      userName: 'Real Name',
      date: now.toISOString(),
      consumable: { id: notice.consumable.id, name: 'Confetti', tokenCost: 15, displayType: 'cover', purchaseId: notice.purchaseId },
    });
    const forged = composeChatMessage({ text: 'free', chatMessage: { consumable: { id: 'x', name: 'Confetti' } }, sender, now });
    expect(forged).not.toHaveProperty('consumable');
  });
});

describe('the 20 s edit window (injected clock)', () => {
  it('lets the sender edit their last text message within 20 s only', () => {
    const message = stored();
    expect(() => checkEditable(message, sender.uid, '42', new Date(now.getTime() + EDIT_WINDOW_MS))).not.toThrow();
    expect(() => checkEditable(message, sender.uid, '42', new Date(now.getTime() + EDIT_WINDOW_MS + 1))).toThrow(
      expect.objectContaining({ status: 403, message: expect.stringContaining('within 20 seconds') }),
    );
    expect(() => checkEditable(message, sender.uid, '43', now)).toThrow(/last message/);
    expect(() => checkEditable(message, 'someone-else', '42', now)).toThrow(/Only the sender/);
    expect(() => checkEditable(stored({ type: 'image' }), sender.uid, '42', now)).toThrow(/Only text/);
  });
});

describe('reactions', () => {
  it('toggle per user per emoji', () => {
    const none: Array<{ uid: string; reaction: string }> = [];
    expect(toggleReaction(none, 'a', '🔥', true).changed).toBe(true);
    const one = [{ uid: 'a', reaction: '🔥' }];
    expect(toggleReaction(one, 'a', '🔥', true).changed).toBe(false); // on twice: still one
    expect(toggleReaction(one, 'b', '🔥', true).changed).toBe(true); // another user
    expect(toggleReaction(one, 'a', '❤️', true).changed).toBe(true); // another emoji
    expect(toggleReaction(one, 'a', '🔥', false).changed).toBe(true);
    expect(toggleReaction(none, 'a', '🔥', false).changed).toBe(false);
  });

  it('show in CometChat data.reactions and in spec 002 chatMessage.reactions', () => {
    const at = now;
    const view = messageView(
      stored(),
      [
        { id: '1', messageId: '42', uid: 'a', name: 'Ann', avatar: 'x', reaction: '🔥', reactedAt: at },
        { id: '2', messageId: '42', uid: 'b', name: 'Bob', avatar: 'y', reaction: '🔥', reactedAt: at },
        { id: '3', messageId: '42', uid: 'b', name: 'Bob', avatar: 'y', reaction: '❤️', reactedAt: at },
      ],
      'a',
    );
    expect(view.data.reactions).toEqual([
      { reaction: '🔥', count: 2, reactedByMe: true },
      { reaction: '❤️', count: 1 },
    ]);
    expect(view.data.metadata.chatMessage.reactions).toEqual({
      '🔥': [
        { userUUID: 'a', messageId: '42', name: 'Ann' },
        { userUUID: 'b', messageId: '42', name: 'Bob' },
      ],
      '❤️': [{ userUUID: 'b', messageId: '42', name: 'Bob' }],
    });
    expect(view).toMatchObject({ id: '42', sentAt: Math.floor(now.getTime() / 1000), sender: sender.uid, data: { text: '/play' } });
  });
});
