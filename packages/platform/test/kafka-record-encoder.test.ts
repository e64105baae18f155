import { randomBytes, randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import '../src/kafka/client.js';
import { encodeRecord, kafkajsRecord, type KafkaRecord } from '../src/kafka/record-encoder.js';

const pick = <T>(values: T[]): T => values[Math.floor(Math.random() * values.length)]!;

function randomRecord(): KafkaRecord {
  const bytes = () =>
    pick<KafkaRecord['key']>([
      null,
      undefined,
      '',
      randomUUID(),
      'clé ✓ 🎵',
      randomBytes(Math.floor(Math.random() * 300)),
      'x'.repeat(200),
    ]);
  const headers: NonNullable<KafkaRecord['headers']> = {};
  for (let i = Math.floor(Math.random() * 5); i > 0; i -= 1) {
    headers[pick(['event-id', 'event-type', 'traceparent', 'en-tête é', `h${i}`])] = pick([
      randomUUID(),
      'play.tracked',
      randomBytes(20),
      [randomUUID(), randomBytes(3)],
      [],
      '',
    ]);
  }
  return {
    offsetDelta: pick([0, 1, 63, 64, 127, 128, 8191, 8192, Math.floor(Math.random() * 100_000), 2 ** 30 + 5]),
    timestampDelta: pick([0, 1, -1, 63, 64, -65, 1234, Math.floor(Math.random() * 2 ** 31), -(2 ** 31 - 1), 2 ** 40]),
    key: bytes(),
    value: bytes(),
    headers: pick([undefined, {}, headers]),
  };
}

describe("the kit's Kafka record encoder", () => {
  it("writes the bytes kafkajs's record encoder writes, for every kind of key, value, headers and delta", () => {
    for (let i = 0; i < 3000; i += 1) {
      const record = randomRecord();
      expect(encodeRecord(record).buffer.equals(kafkajsRecord(record).buffer), JSON.stringify(record)).toBe(true);
    }
  });

  it('is what a message of the kit looks like: a string key, a Buffer value, three string headers', () => {
    const record: KafkaRecord = {
      offsetDelta: 41,
      timestampDelta: 3,
      key: randomUUID(),
      value: randomBytes(180),
      headers: { 'event-id': randomUUID(), 'event-type': 'play.tracked', traceparent: `00-${'a'.repeat(32)}-${'b'.repeat(16)}-01` },
    };
    const ours = encodeRecord(record);
    expect(ours.buffer).toEqual(kafkajsRecord(record).buffer);
    expect(ours.offset).toBe(ours.buffer.length);
  });

  it("is the record encoder kafkajs's produce requests load once the kit's client is imported", () => {
    const require = createRequire(import.meta.url);
    expect(require('kafkajs/src/protocol/recordBatch/record/v0/index.js')).toBe(encodeRecord);
  });

  it('leaves to kafkajs what it refuses (a header without a value) and what it alone encodes (a number as key)', () => {
    const headerless = { key: 'k', value: 'v', headers: { broken: null } } as unknown as KafkaRecord;
    expect(() => encodeRecord(headerless)).toThrow();
    expect(() => kafkajsRecord(headerless)).toThrow();
    const numbered = { key: 42, value: 'v' } as unknown as KafkaRecord;
    expect(() => encodeRecord(numbered)).toThrow();
    expect(() => kafkajsRecord(numbered)).toThrow();
  });
});
