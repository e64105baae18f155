import { randomBytes, randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { Partitioners, type PartitionerArgs } from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { MurmurPartitioner, murmur2 } from '../src/kafka/partitioner.js';

// kafkajs's own BigInt murmur2, the hash every message keyed so far was placed with.
const kafkajsMurmur2 = createRequire(import.meta.url)('kafkajs/src/producer/partitioners/default/murmur2.js') as (
  key: Buffer | string,
) => number;

const partitions = (count: number, leaderless: number[] = []): PartitionerArgs['partitionMetadata'] =>
  Array.from({ length: count }, (_, partitionId) => ({
    partitionId,
    leader: leaderless.includes(partitionId) ? -1 : 0,
    partitionErrorCode: 0,
    replicas: [0],
    isr: [0],
  }));

describe('the kit partitioner (murmur2 in 32-bit integers)', () => {
  it("hashes every key as kafkajs's BigInt murmur2 does, whatever its length or bytes", () => {
    const keys: Array<Buffer | string> = ['', 'a', 'ab', 'abc', 'abcd', 'héllo wörld ✓', '🎵 play'];
    for (let length = 0; length < 70; length += 1) keys.push(randomBytes(length), randomBytes(length).toString('base64'));
    for (let i = 0; i < 300; i += 1) keys.push(randomUUID());
    for (const key of keys) expect(murmur2(key), String(key)).toBe(kafkajsMurmur2(key));
  });

  it("places keyed messages on the partitions kafkajs's DefaultPartitioner chooses, and honours a message's own partition", () => {
    const ours = MurmurPartitioner();
    const theirs = Partitioners.DefaultPartitioner();
    for (const count of [1, 3, 7, 12]) {
      for (let i = 0; i < 200; i += 1) {
        const args = { topic: 't', partitionMetadata: partitions(count), message: { key: randomUUID(), value: null } };
        expect(ours(args)).toBe(theirs(args));
      }
    }
    expect(ours({ topic: 't', partitionMetadata: partitions(3), message: { key: 'k', value: null, partition: 2 } })).toBe(2);
  });

  it('spreads unkeyed messages round robin over the partitions that have a leader', () => {
    const ours = MurmurPartitioner();
    const chosen = Array.from({ length: 8 }, () => ours({ topic: 't', partitionMetadata: partitions(4, [1]), message: { value: null } }));
    expect(new Set(chosen)).toEqual(new Set([0, 2, 3]));
    for (let i = 1; i < chosen.length; i += 1) expect(chosen[i]).not.toBe(chosen[i - 1]);
  });
});
