import { dropDatabase, openServiceDatabase, type MikroORM } from '@spinroom/platform';
import { uniqueDatabaseUrl } from '@spinroom/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgChatStore } from '../src/db/chat-store.js';
import { chatDatabase } from '../src/db/database.js';
import type { MessageQuery } from '../src/domain/ports.js';

const ROOM = '11111111-1111-4111-8111-111111111111';
const OTHER_ROOM = '22222222-2222-4222-8222-222222222222';
const SENDER = '33333333-3333-4333-8333-333333333333';
/** Second 0 of the history, in seconds since the epoch. */
const T0 = 1_800_000_000;
/** Message n (1..120) is sent at T0 + floor(n / 10) seconds and a half: 1..9 in second 0, 10..19 in second 1, ..., 120 in second 12. */
const secondOf = (id: number) => Math.floor(id / 10);
const LAST = 120;

/** a..b, both included; empty when b < a. */
const ids = (a: number, b: number) => Array.from({ length: Math.max(b - a + 1, 0) }, (_, i) => a + i);

describe('chat history paging on PostgreSQL (CometChat v3 List Group Messages)', () => {
  const databaseUrl = uniqueDatabaseUrl('chat_store');
  let orm: MikroORM;
  let store: PgChatStore;

  const insert = (receiver: string, at: Date) =>
    store.insert({
      receiver,
      sender: SENDER,
      type: 'text',
      text: 'x',
      attachments: [],
      chatMessage: {},
      senderEntity: { uid: SENDER, name: 'Sender', avatar: 'a' },
      sentAt: at,
    });

  beforeAll(async () => {
    orm = await openServiceDatabase('chat', databaseUrl, chatDatabase);
    store = new PgChatStore(orm);
    // Ids 1..120 in ROOM (a fresh database: the ids cross 9 -> 10 and 99 -> 100), then five in another room at the same times.
    for (let id = 1; id <= LAST; id++) {
      const stored = await insert(ROOM, new Date((T0 + secondOf(id) + 0.5) * 1000));
      expect(stored.id).toBe(String(id));
    }
    for (let n = 0; n < 5; n++) await insert(OTHER_ROOM, new Date((T0 + n * 3 + 0.5) * 1000));
    // Reactions change messages 5 and 50 much later (their updatedAt).
    for (const messageId of ['5', '50']) {
      await store.setReaction({
        messageId,
        uid: SENDER,
        name: 'Sender',
        avatar: 'a',
        reaction: '🔥',
        on: true,
        at: new Date((T0 + 100) * 1000),
      });
    }
  }, 60_000);
  afterAll(async () => {
    await orm?.close();
    await dropDatabase(databaseUrl);
  });

  const list = async (query: Partial<MessageQuery>) =>
    (await store.messages(ROOM, { limit: 5, affix: 'prepend', ...query })).map((m) => Number(m.id));

  const cases: Array<[string, Partial<MessageQuery>, number[]]> = [
    // The newest page, ordered by number (never "5".."9" for the newest five of 1..48).
    ['the newest page by default', {}, ids(116, 120)],
    ['all, up to the limit', { limit: 300 }, ids(1, 120)],
    ['append without a lower bound: the newest page too', { affix: 'append' }, ids(116, 120)],
    // The id cursor, across digit counts.
    ['append after 8, one: 9', { id: '8', affix: 'append', limit: 1 }, [9]],
    ['append after 8', { id: '8', affix: 'append' }, ids(9, 13)],
    ['append after 9', { id: '9', affix: 'append', limit: 3 }, [10, 11, 12]],
    ['append after 98', { id: '98', affix: 'append' }, ids(99, 103)],
    ['append after 99', { id: '99', affix: 'append', limit: 2 }, [100, 101]],
    ['append after 119', { id: '119', affix: 'append' }, [120]],
    ['append after the last: nothing', { id: '120', affix: 'append' }, []],
    ['append after 0: the oldest page', { id: '0', affix: 'append' }, ids(1, 5)],
    ['prepend before 10', { id: '10', limit: 3 }, [7, 8, 9]],
    ['prepend before 11, all', { id: '11', limit: 300 }, ids(1, 10)],
    ['prepend before 100', { id: '100', limit: 3 }, [97, 98, 99]],
    ['prepend before 101', { id: '101' }, ids(96, 100)],
    ['prepend before 1: nothing', { id: '1' }, []],
    ['prepend before an id past the last', { id: '1000', limit: 3 }, [118, 119, 120]],
    // fromTimestamp: a lower bound whatever the affix.
    ['fromTimestamp without affix: the newest page sent at or after it', { fromTimestamp: T0 + 10 }, ids(116, 120)],
    ['fromTimestamp, all', { fromTimestamp: T0 + 10, limit: 300 }, ids(100, 120)],
    ['fromTimestamp, prepend, all', { fromTimestamp: T0 + 9, affix: 'prepend', limit: 300 }, ids(90, 120)],
    ['fromTimestamp of the last second: the message sent in it', { fromTimestamp: T0 + 12 }, [120]],
    ['fromTimestamp after the last message: nothing', { fromTimestamp: T0 + 13 }, []],
    ['fromTimestamp with append: the oldest page from it', { fromTimestamp: T0 + 11, affix: 'append' }, ids(110, 114)],
    ['fromTimestamp with append, across 99 -> 100', { fromTimestamp: T0 + 9, affix: 'append', limit: 12 }, ids(90, 101)],
    ['fromTimestamp before everything, append', { fromTimestamp: T0 - 100, affix: 'append', limit: 3 }, [1, 2, 3]],
    // toTimestamp: an upper bound whatever the affix (a message sent at T.5 s has sentAt T).
    ['toTimestamp: the newest page sent at or before it', { toTimestamp: T0 }, ids(5, 9)],
    ['toTimestamp, all', { toTimestamp: T0, limit: 300 }, ids(1, 9)],
    ['toTimestamp across 99 -> 100', { toTimestamp: T0 + 9, limit: 3 }, [97, 98, 99]],
    ['toTimestamp with append and no lower bound: the newest page', { toTimestamp: T0 + 1, affix: 'append', limit: 3 }, [17, 18, 19]],
    ['toTimestamp before everything: nothing', { toTimestamp: T0 - 1 }, []],
    ['toTimestamp after everything', { toTimestamp: T0 + 1000, limit: 3 }, [118, 119, 120]],
    // Both bounds.
    ['fromTimestamp and toTimestamp, all', { fromTimestamp: T0 + 1, toTimestamp: T0 + 2, limit: 300 }, ids(10, 29)],
    ['fromTimestamp and toTimestamp, newest page', { fromTimestamp: T0 + 1, toTimestamp: T0 + 2 }, ids(25, 29)],
    ['fromTimestamp and toTimestamp, append', { fromTimestamp: T0 + 1, toTimestamp: T0 + 2, affix: 'append' }, ids(10, 14)],
    ['one second', { fromTimestamp: T0 + 10, toTimestamp: T0 + 10, limit: 300 }, ids(100, 109)],
    ['fromTimestamp after toTimestamp: nothing', { fromTimestamp: T0 + 5, toTimestamp: T0 + 4 }, []],
    // An id cursor within the bounds.
    ['append after 15 up to toTimestamp', { id: '15', affix: 'append', toTimestamp: T0 + 2, limit: 300 }, ids(16, 29)],
    ['append after 5 from fromTimestamp', { id: '5', affix: 'append', fromTimestamp: T0 + 10, limit: 3 }, [100, 101, 102]],
    ['append after 105 from an earlier fromTimestamp', { id: '105', affix: 'append', fromTimestamp: T0 + 1, limit: 3 }, [106, 107, 108]],
    ['prepend before 105 from fromTimestamp, all', { id: '105', fromTimestamp: T0 + 9, limit: 300 }, ids(90, 104)],
    ['prepend before 105 from fromTimestamp', { id: '105', fromTimestamp: T0 + 9, limit: 3 }, [102, 103, 104]],
    ['prepend before 50 up to toTimestamp', { id: '50', toTimestamp: T0 + 2, limit: 3 }, [27, 28, 29]],
    ['prepend before 12 up to a later toTimestamp', { id: '12', toTimestamp: T0 + 5, limit: 300 }, ids(1, 11)],
    ['all four', { id: '95', affix: 'append', fromTimestamp: T0 + 9, toTimestamp: T0 + 10, limit: 300 }, ids(96, 109)],
    // sentAt and updatedAt: cursors that follow the affix.
    ['sentAt with append: at or after', { sentAt: T0 + 11, affix: 'append', limit: 3 }, [110, 111, 112]],
    ['sentAt with prepend: at or before', { sentAt: T0 + 1, limit: 3 }, [17, 18, 19]],
    ['updatedAt with append: changed at or after', { updatedAt: T0 + 100, affix: 'append' }, [5, 50]],
    ['updatedAt with prepend: changed at or before', { updatedAt: T0 + 99, limit: 3 }, [118, 119, 120]],
  ];

  it.each(cases)('%s', async (_name, query, expected) => {
    expect(await list(query)).toEqual(expected);
  });

  it('walks the whole history both ways, page by page, without a gap or a repeat', async () => {
    for (const limit of [1, 7, 10, 33]) {
      const forward: number[] = [];
      for (let page = await list({ id: '0', affix: 'append', limit }); page.length > 0; ) {
        forward.push(...page);
        page = await list({ id: String(page.at(-1)), affix: 'append', limit });
      }
      expect(forward).toEqual(ids(1, LAST));

      const backward: number[] = [];
      for (let page = await list({ limit }); page.length > 0; ) {
        backward.unshift(...page);
        page = await list({ id: String(page[0]), affix: 'prepend', limit });
      }
      expect(backward).toEqual(ids(1, LAST));
    }
  });

  it("finds the sender's last message by number (10 after 9)", async () => {
    expect(await store.lastOwnMessageId(ROOM, SENDER)).toBe(String(LAST));
    expect(await store.lastOwnMessageId(OTHER_ROOM, SENDER)).toBe(String(LAST + 5));
  });

  it('stores a message with a dedupe key once, however often and however concurrently it is written', async () => {
    const room = '44444444-4444-4444-8444-444444444444';
    const message = {
      receiver: room,
      sender: SENDER,
      type: 'text' as const,
      text: 'Confetti',
      attachments: [],
      chatMessage: { consumable: { id: 'c', purchaseId: 'p' } },
      senderEntity: { uid: SENDER, name: 'Sender', avatar: 'a' },
      sentAt: new Date(),
    };
    const written = await Promise.all(Array.from({ length: 5 }, () => store.insertOnce(message, 'consumable-purchase:p')));
    expect(written.filter(Boolean)).toHaveLength(1);
    expect(await store.insertOnce(message, 'consumable-purchase:p')).toBeUndefined();
    expect(await store.insertOnce(message, 'consumable-purchase:q')).toMatchObject({ receiver: room, text: 'Confetti' });
    expect(await store.messages(room, { limit: 10, affix: 'prepend' })).toHaveLength(2);
  });
});
