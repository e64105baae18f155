import { dropDatabase, openServiceDatabase, type MikroORM } from '@spinroom/platform';
import { uniqueDatabaseUrl } from '@spinroom/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgChatStore } from '../src/db/chat-store.js';
import { chatDatabase } from '../src/db/database.js';
import { PgDirectMessageStore } from '../src/db/direct-message-store.js';
import { NotificationRequested } from '@spinroom/contracts/events/v1/notifications';
import { conversationView, directConversationId, directMessageView, type StoredDirectMessage } from '../src/domain/direct-message.js';
import { directMessageNotification } from '../src/events/notifications.js';

const ANN = '11111111-1111-4111-8111-111111111111';
const BOB = '22222222-2222-4222-8222-222222222222';
const CAT = '33333333-3333-4333-8333-333333333333';
const ROOM = '44444444-4444-4444-8444-444444444444';
const entity = (uid: string) => ({ uid, name: `name-${uid.slice(0, 4)}`, avatar: 'a' });
const T0 = 1_800_000_000;
const at = (second: number) => new Date((T0 + second + 0.5) * 1000);

describe('direct messages as clients read them', () => {
  const message: StoredDirectMessage = {
    id: '7',
    sender: BOB,
    receiver: ANN,
    type: 'text',
    text: 'hi Ann',
    attachments: [],
    chatMessage: { message: 'hi Ann', userUuid: BOB },
    senderEntity: entity(BOB),
    receiverEntity: entity(ANN),
    sentAt: at(0),
    updatedAt: at(0),
    readAt: null,
  };

  it('names a conversation by both uids in order, whoever sent', () => {
    expect(directConversationId(BOB, ANN)).toBe(`${ANN}_user_${BOB}`);
    expect(directConversationId(ANN, BOB)).toBe(`${ANN}_user_${BOB}`);
  });

  it('is a CometChat message with receiverType "user", readAt only once read', () => {
    const view = directMessageView(message);
    expect(view).toEqual({
      id: '7',
      conversationId: `${ANN}_user_${BOB}`,
      sender: BOB,
      receiver: ANN,
      receiverType: 'user',
      category: 'message',
      type: 'text',
      data: {
        text: 'hi Ann',
        entities: {
          sender: { entity: entity(BOB), entityType: 'user' },
          receiver: { entity: { ...entity(ANN), conversationId: `${ANN}_user_${BOB}` }, entityType: 'user' },
        },
        metadata: { chatMessage: { message: 'hi Ann', userUuid: BOB, id: '7' } },
      },
      sentAt: T0,
      updatedAt: T0,
    });
    expect(directMessageView({ ...message, readAt: at(5) }).readAt).toBe(T0 + 5);
  });

  it('shows a conversation from its owner side: the other user, their status and the unread count', () => {
    const view = conversationView(
      ANN,
      { partner: BOB, lastMessage: message, unreadMessageCount: 3, createdAt: at(0), updatedAt: at(9) },
      { entity: entity(BOB), online: false, group: 'friends' },
    );
    expect(view).toMatchObject({
      conversationId: `${ANN}_user_${BOB}`,
      conversationType: 'user',
      unreadMessageCount: 3,
      createdAt: T0,
      updatedAt: T0 + 9,
      lastMessage: { id: '7', receiverType: 'user' },
      conversationWith: { uid: BOB, status: 'offline', conversationId: `${ANN}_user_${BOB}` },
      conversationGroup: 'friends',
    });
  });
});

describe("a direct message's notification to someone offline", () => {
  const message = (overrides: Partial<StoredDirectMessage> = {}): StoredDirectMessage => ({
    id: '42',
    sender: BOB,
    receiver: ANN,
    type: 'text',
    text: 'are you coming tonight?',
    attachments: [],
    chatMessage: { message: 'are you coming tonight?' },
    senderEntity: entity(BOB),
    receiverEntity: entity(ANN),
    sentAt: at(0),
    updatedAt: at(0),
    readAt: null,
    ...overrides,
  });

  it('asks the social service for a directMessage notification to the recipient (notifications.proto), keyed by them', () => {
    const entry = directMessageNotification(message());
    expect(entry).toMatchObject({ topic: 'notifications', key: ANN, metadata: { eventType: 'notification.requested' } });
    const decoded = NotificationRequested.decode(entry.payload);
    expect(decoded).toMatchObject({
      metadata: { eventId: entry.metadata.eventId, eventType: 'notification.requested' },
      recipientUserUuid: ANN,
      kind: 'directMessage',
      title: entity(BOB).name,
      body: 'are you coming tonight?',
      data: { type: 'directMessage', messageId: '42', senderUuid: BOB, conversationId: `${ANN}_user_${BOB}` },
      silent: false,
      channel: '',
    });
    // Each message its own notification id.
    expect(directMessageNotification(message()).metadata.eventId).not.toBe(entry.metadata.eventId);
  });

  it('shows at most 140 characters of the text, and says what an image is', () => {
    const long = NotificationRequested.decode(directMessageNotification(message({ chatMessage: { message: '👍🏽'.repeat(200) } })).payload);
    expect(long.body).toBe(`${'👍🏽'.repeat(139)}…`);
    expect(long.body.endsWith('…')).toBe(true);
    const image = NotificationRequested.decode(
      directMessageNotification(message({ type: 'image', text: '', chatMessage: { message: '' } })).payload,
    );
    expect(image.body).toBe('sent you an image');
  });
});

describe('direct messages on PostgreSQL', () => {
  const databaseUrl = uniqueDatabaseUrl('chat_direct');
  let orm: MikroORM;
  let store: PgDirectMessageStore;
  let rooms: PgChatStore;
  let staged = 0;

  const send = (sender: string, receiver: string, second: number, text = `${sender.slice(0, 1)}->${receiver.slice(0, 1)} ${second}`) =>
    store.insert({
      sender,
      receiver,
      type: 'text',
      text,
      attachments: [],
      chatMessage: { message: text },
      senderEntity: entity(sender),
      receiverEntity: entity(receiver),
      sentAt: at(second),
    });

  beforeAll(async () => {
    orm = await openServiceDatabase('chat', databaseUrl, chatDatabase);
    store = new PgDirectMessageStore(orm, () => staged++);
    rooms = new PgChatStore(orm);
  }, 60_000);
  afterAll(async () => {
    await orm?.close();
    await dropDatabase(databaseUrl);
  });

  it("draws ids from the room messages' sequence: one id names one message, growing across both", async () => {
    const room = await rooms.insert({
      receiver: ROOM,
      sender: ANN,
      type: 'text',
      text: 'in the room',
      attachments: [],
      chatMessage: {},
      senderEntity: entity(ANN),
      sentAt: at(0),
    });
    const direct = await send(ANN, BOB, 0);
    const room2 = await rooms.insert({
      receiver: ROOM,
      sender: ANN,
      type: 'text',
      text: 'again',
      attachments: [],
      chatMessage: {},
      senderEntity: entity(ANN),
      sentAt: at(0),
    });
    expect(Number(direct.id)).toBeGreaterThan(Number(room.id));
    expect(Number(room2.id)).toBeGreaterThan(Number(direct.id));
    expect(await rooms.message(direct.id)).toBeUndefined();
  });

  it('lists one conversation oldest first, paged as a room: newest page, id cursors both ways, sender and unread', async () => {
    // Ann and Bob: 1..12 (odd from Bob), Ann and Cat: 3 messages between.
    const sent: StoredDirectMessage[] = [];
    for (let n = 1; n <= 12; n++) {
      sent.push(await send(n % 2 ? BOB : ANN, n % 2 ? ANN : BOB, 10 + n));
      if (n % 4 === 0) await send(CAT, ANN, 10 + n);
    }
    const idsOf = (list: StoredDirectMessage[]) => list.map((m) => m.id);
    const conversation = await store.messages({ owner: ANN, withUser: BOB }, { limit: 300, affix: 'prepend' });
    // The first test's message opens the conversation.
    expect(conversation).toHaveLength(13);
    expect(idsOf(conversation.slice(1))).toEqual(idsOf(sent));
    // Bob reads the same conversation.
    expect(idsOf(await store.messages({ owner: BOB, withUser: ANN }, { limit: 300, affix: 'prepend' }))).toEqual(idsOf(conversation));
    // Cat's messages are not in it.
    expect(conversation.every((m) => m.sender !== CAT && m.receiver !== CAT)).toBe(true);

    const newest = await store.messages({ owner: ANN, withUser: BOB }, { limit: 5, affix: 'prepend' });
    expect(idsOf(newest)).toEqual(idsOf(sent.slice(7)));
    const older = await store.messages({ owner: ANN, withUser: BOB }, { limit: 5, affix: 'prepend', id: newest[0]!.id });
    expect(idsOf(older)).toEqual(idsOf(sent.slice(2, 7)));
    const after = await store.messages({ owner: ANN, withUser: BOB }, { limit: 3, affix: 'append', id: sent[3]!.id });
    expect(idsOf(after)).toEqual(idsOf(sent.slice(4, 7)));
    const fromTime = await store.messages({ owner: ANN, withUser: BOB }, { limit: 300, affix: 'append', fromTimestamp: T0 + 20 });
    expect(idsOf(fromTime)).toEqual(idsOf(sent.slice(9)));

    // Every conversation of Ann's, narrowed by sender.
    const fromCat = await store.messages({ owner: ANN, sender: CAT }, { limit: 300, affix: 'prepend' });
    expect(fromCat).toHaveLength(3);
    const fromBob = await store.messages({ owner: ANN, sender: BOB }, { limit: 300, affix: 'prepend' });
    expect(idsOf(fromBob)).toEqual(idsOf(sent.filter((_, i) => i % 2 === 0)));
    // Bob's own view of all his: no Cat.
    expect(await store.messages({ owner: BOB, sender: CAT }, { limit: 300, affix: 'prepend' })).toEqual([]);

    // Unread: what was sent to Ann and not read yet.
    expect(await store.messages({ owner: ANN, unread: true }, { limit: 300, affix: 'prepend' })).toHaveLength(9);
    expect(await store.messages({ owner: BOB, unread: true }, { limit: 300, affix: 'prepend' })).toHaveLength(7);
  });

  it('keeps conversations with some users only, or leaves them out (friends, others, blocked)', async () => {
    // Ann's conversations so far: with Bob (the first test's message).
    await send(CAT, ANN, 1);
    const partners = async (filter: { partnersIn?: string[]; partnersNotIn?: string[] }) =>
      (await store.conversations({ owner: ANN, limit: 10, offset: 0, ...filter })).conversations.map((c) => c.partner);
    expect(await partners({})).toEqual([CAT, BOB]);
    expect(await partners({ partnersIn: [BOB] })).toEqual([BOB]);
    expect(await partners({ partnersIn: [] })).toEqual([]);
    expect(await partners({ partnersNotIn: [BOB] })).toEqual([CAT]);
    expect(await partners({ partnersNotIn: [] })).toEqual([CAT, BOB]);
    expect(await store.conversations({ owner: ANN, limit: 10, offset: 0, partnersIn: [BOB, CAT], partnersNotIn: [CAT] })).toMatchObject({
      total: 1,
    });
    // Hidden senders leave a listing's page full.
    const page = await store.messages({ owner: ANN }, { limit: 1, affix: 'prepend', hiddenSenders: [CAT] });
    expect(page.map((m) => m.sender)).toEqual([ANN]);
  });

  it('sums up conversations newest first with unread counts, paged, and marks them read up to a message or all', async () => {
    const { conversations, total } = await store.conversations({ owner: ANN, limit: 10, offset: 0 });
    expect(total).toBe(2);
    // Cat wrote last (n = 12, after Ann's message to Bob).
    expect(conversations.map((c) => c.partner)).toEqual([CAT, BOB]);
    expect(conversations.map((c) => c.unreadMessageCount)).toEqual([4, 6]);
    const bob = conversations[1]!;
    expect(bob.lastMessage).toMatchObject({ sender: ANN, receiver: BOB, text: '1->2 22' });
    expect(bob.createdAt).toEqual(at(0));
    expect(bob.updatedAt).toEqual(at(22));
    const second = await store.conversations({ owner: ANN, limit: 1, offset: 1 });
    expect(second).toMatchObject({ total: 2, conversations: [{ partner: BOB }] });
    expect(await store.conversations({ owner: ANN, limit: 1, offset: 2 })).toEqual({ conversations: [], total: 2 });

    // Bob's side: his unread are Ann's 7.
    expect(await store.conversation(BOB, ANN)).toMatchObject({ partner: ANN, unreadMessageCount: 7 });
    expect(await store.conversation(BOB, CAT)).toBeUndefined();

    // Ann reads Bob's up to his third message (n = 5): 3 of 6, then the rest.
    const bobsToAnn = await store.messages({ owner: ANN, sender: BOB }, { limit: 300, affix: 'prepend' });
    expect(await store.markRead(ANN, BOB, bobsToAnn[2]!.id, at(100))).toBe(3);
    expect(await store.markRead(ANN, BOB, bobsToAnn[2]!.id, at(101))).toBe(0);
    expect(await store.conversation(ANN, BOB)).toMatchObject({ unreadMessageCount: 3 });
    const read = await store.messages({ owner: ANN, withUser: BOB }, { limit: 300, affix: 'prepend' });
    expect(read.filter((m) => m.readAt).map((m) => m.id)).toEqual(bobsToAnn.slice(0, 3).map((m) => m.id));
    expect(read.find((m) => m.readAt)!.readAt).toEqual(at(100));
    // Reading Bob's never touches Cat's, nor what Ann sent.
    expect(await store.conversation(ANN, CAT)).toMatchObject({ unreadMessageCount: 4 });
    expect(await store.conversation(BOB, ANN)).toMatchObject({ unreadMessageCount: 7 });
    expect(await store.markRead(ANN, BOB, undefined, at(102))).toBe(3);
    const unreadOnly = await store.conversations({ owner: ANN, unread: true, limit: 10, offset: 0 });
    expect(unreadOnly).toMatchObject({ total: 1, conversations: [{ partner: CAT }] });
  });

  it("writes an announcement in the message's transaction, and nothing when there is none", async () => {
    const outbox = async () => (await orm.em.fork().execute<Array<{ n: number }>>(`select count(*)::int as n from "outbox_message"`))[0]!.n;
    const before = await outbox();
    await send(ANN, CAT, 50);
    expect(await outbox()).toBe(before);
    expect(staged).toBe(0);
    const message = await store.insert(
      {
        sender: ANN,
        receiver: CAT,
        type: 'text',
        text: 'announced',
        attachments: [],
        chatMessage: {},
        senderEntity: entity(ANN),
        receiverEntity: entity(CAT),
        sentAt: at(51),
      },
      (stored) => ({
        topic: 'notifications',
        key: stored.receiver,
        metadata: { eventId: crypto.randomUUID(), eventType: 'test', occurredAt: stored.sentAt },
        payload: Buffer.from(stored.id),
      }),
    );
    expect(await outbox()).toBe(before + 1);
    expect(staged).toBe(1);
    const [row] = await orm.em
      .fork()
      .execute<Array<{ key: string; payload: Buffer }>>(`select "key", "payload" from "outbox_message" order by "seq" desc limit 1`);
    expect(row!.key).toBe(CAT);
    expect(Buffer.from(row!.payload).toString()).toBe(message.id);
    // A failing announcement takes the message with it.
    await expect(
      store.insert(
        {
          sender: ANN,
          receiver: CAT,
          type: 'text',
          text: 'never stored',
          attachments: [],
          chatMessage: {},
          senderEntity: entity(ANN),
          receiverEntity: entity(CAT),
          sentAt: at(52),
        },
        () => {
          throw new Error('no announcement');
        },
      ),
    ).rejects.toThrow('no announcement');
    expect((await store.messages({ owner: CAT, withUser: ANN }, { limit: 300, affix: 'prepend' })).map((m) => m.text)).not.toContain(
      'never stored',
    );
  });
});
