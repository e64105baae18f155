// The /kinesis records' way to Kafka (events/analytics-records.ts): a batch call's records
// go to the sink together, each answered once the broker acknowledged its own send.
import { randomUUID } from 'node:crypto';
import { PlayTracked } from '@spinroom/contracts/events/v1/analytics';
import type { Caller, EventMessage, EventProducer } from '@spinroom/platform';
import { describe, expect, it } from 'vitest';
import { Analytics, validateRecord } from '../src/domain/analytics.js';
import { BatchingRecordSink } from '../src/events/analytics-records.js';
import { playRecord } from './support.js';

const caller = (userUuid = randomUUID()): Caller => ({ userUuid, role: 'user', kind: 'user', capabilities: [], token: '' });

/** A producer whose sends are answered by `answer` (by send number), recording what each carried. */
function producer(answer: (send: number) => Promise<void>) {
  const sends: EventMessage[][] = [];
  const fake: EventProducer = {
    send: (messages) => {
      sends.push(messages);
      return answer(sends.length);
    },
    disconnect: async () => undefined,
  };
  return { fake, sends };
}

describe('the batching record sink', () => {
  it("answers a batch's records together, each with its id, or the refusal of the send that carried it", async () => {
    const { fake, sends } = producer((send) => (send === 2 ? Promise.reject(new Error('broker down')) : Promise.resolve()));
    const sink = new BatchingRecordSink(fake, { lingerMs: 0, maxBatch: 3 });
    const users = Array.from({ length: 7 }, () => randomUUID());
    const records = users.map((user) => validateRecord(caller(user), 'play-tracking', JSON.stringify(playRecord(user, 'totalPlayed'))));
    const outcomes = await sink.publishAll(records);
    expect(sends.map((messages) => messages.length)).toEqual([3, 3, 1]);
    const ids = sends.flat().map((message) => PlayTracked.decode(message.value).metadata?.eventId);
    expect(outcomes.map((outcome) => ('id' in outcome ? outcome.id : (outcome.refused as { status?: number }).status))).toEqual([
      ids[0],
      ids[1],
      ids[2],
      503,
      503,
      503,
      ids[6],
    ]);
    expect(sends.flat().map((message) => message.key)).toEqual(users);
    expect(await sink.publishAll([])).toEqual([]);
  });

  it('checks each record for its own caller, refuses the bad ones without holding the others, and keeps the order', async () => {
    const { fake, sends } = producer(() => Promise.resolve());
    const analytics = new Analytics(new BatchingRecordSink(fake, { lingerMs: 0, maxBatch: 100 }));
    const [alice, bob] = [caller(), caller()];
    const outcomes = await analytics.recordAll([
      { caller: alice, topic: 'play-tracking', recordJson: JSON.stringify(playRecord(alice.userUuid, 'totalPlayed')) },
      { caller: alice, topic: 'play-tracking', recordJson: JSON.stringify(playRecord(bob.userUuid, 'totalPlayed')) },
      { refused: new Error('bad token'), topic: 'play-tracking', recordJson: '{}' },
      { caller: bob, topic: 'clicks', recordJson: '{}' },
      { caller: bob, topic: 'page-views', recordJson: JSON.stringify({ path: '/rooms', device: {} }) },
    ]);
    const summary = outcomes.map((outcome) =>
      'refused' in outcome ? ((outcome.refused as { status?: number; message: string }).status ?? outcome.refused) : outcome.topic,
    );
    expect(summary).toEqual(['play-tracking', 403, new Error('bad token'), 400, 'page-views']);
    expect(sends.flat().map((message) => [message.topic, message.key])).toEqual([
      ['play-tracking', alice.userUuid],
      ['page-views', bob.userUuid],
    ]);
  });
});
