// kafkajs 2.2.4 (its last release) encodes each record of a produce request
// with a zero-filled 512-byte buffer for the record and another for each of
// its headers, a JavaScript array and a Buffer for every varint, and 64-bit
// BigInt arithmetic for the timestamp delta: with three headers a message,
// about ten allocations a record, and at tens of thousands of records a
// second the largest share of a producing process's CPU and garbage. This
// encodes the same bytes (the Kafka record v0 format, as kafkajs writes it)
// into one pooled buffer of the record's exact size. Records it does not
// expect (a number as key, a timestamp delta past 2^31 ms) go to kafkajs's own
// encoder. Installed before kafkajs's produce request loads it (client.ts).
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const RECORD_MODULE = 'kafkajs/src/protocol/recordBatch/record/v0/index.js';
const PRODUCE_REQUEST_MODULE = 'kafkajs/src/protocol/requests/produce/v3/request.js';

type Bytes = Buffer | string | null | undefined;
export interface KafkaRecord {
  offsetDelta?: number;
  timestampDelta?: number;
  key?: Bytes;
  value?: Bytes;
  headers?: Record<string, Bytes | Bytes[]>;
}
/** kafkajs's Encoder, as far as a produce request reads the encoded records. */
export interface RecordEncoder {
  buf: Buffer;
  offset: number;
  readonly buffer: Buffer;
}
type EncoderClass = { prototype: RecordEncoder };

const Encoder = require('kafkajs/src/protocol/encoder.js') as EncoderClass;
/** kafkajs's own record encoder. */
export const kafkajsRecord = require(RECORD_MODULE) as (record: KafkaRecord) => RecordEncoder;

const INT31 = 2 ** 31;

/** Bytes of a zigzag varint of an int32 (kafkajs's writeVarInt). */
function varIntSize(value: number): number {
  let encoded = (value << 1) ^ (value >> 31);
  let bytes = 1;
  while ((encoded & 0xffffff80) !== 0) {
    bytes += 1;
    encoded >>>= 7;
  }
  return bytes;
}

function writeVarInt(buf: Buffer, at: number, value: number): number {
  let encoded = (value << 1) ^ (value >> 31);
  while ((encoded & 0xffffff80) !== 0) {
    buf[at++] = (encoded & 0x7f) | 0x80;
    encoded >>>= 7;
  }
  buf[at++] = encoded & 0x7f;
  return at;
}

/** Zigzag of a 64-bit integer whose magnitude is below 2^31, as a number below 2^32. */
const zigZag64 = (value: number) => (value >= 0 ? value * 2 : -value * 2 - 1);

function varLongSize(value: number): number {
  let encoded = zigZag64(value);
  let bytes = 1;
  while (encoded >= 0x80) {
    bytes += 1;
    encoded = Math.floor(encoded / 0x80);
  }
  return bytes;
}

function writeVarLong(buf: Buffer, at: number, value: number): number {
  let encoded = zigZag64(value);
  while (encoded >= 0x80) {
    buf[at++] = (encoded % 0x80) | 0x80;
    encoded = Math.floor(encoded / 0x80);
  }
  buf[at++] = encoded;
  return at;
}

const isBytes = (value: unknown): value is Bytes => value == null || typeof value === 'string' || Buffer.isBuffer(value);
const byteLength = (value: Buffer | string) => (typeof value === 'string' ? Buffer.byteLength(value) : value.length);

function writeBytes(buf: Buffer, at: number, value: Bytes): number {
  if (value == null) return writeVarInt(buf, at, -1);
  const length = byteLength(value);
  at = writeVarInt(buf, at, length);
  if (typeof value === 'string') buf.write(value, at, length, 'utf8');
  else value.copy(buf, at);
  return at + length;
}

const sizeOfBytes = (value: Bytes) => {
  if (value == null) return varIntSize(-1);
  const length = byteLength(value);
  return varIntSize(length) + length;
};

/** A record as kafkajs's record v0 encoder writes it, in one buffer (see the module's comment). */
export function encodeRecord(record: KafkaRecord): RecordEncoder {
  const { offsetDelta = 0, timestampDelta = 0, key, value, headers = {} } = record;
  if (
    !Number.isSafeInteger(offsetDelta) ||
    offsetDelta < 0 ||
    offsetDelta >= INT31 ||
    !Number.isSafeInteger(timestampDelta) ||
    Math.abs(timestampDelta) >= INT31 ||
    !isBytes(key) ||
    !isBytes(value)
  ) {
    return kafkajsRecord(record);
  }
  const headerKeys: string[] = [];
  const headerValues: Array<Buffer | string> = [];
  for (const name of Object.keys(headers)) {
    const given = headers[name];
    for (const one of Array.isArray(given) ? given : [given]) {
      // kafkajs throws for a header without a value (Buffer.byteLength of null): so does it, there.
      if (typeof one !== 'string' && !Buffer.isBuffer(one)) return kafkajsRecord(record);
      headerKeys.push(name);
      headerValues.push(one);
    }
  }
  let body = 1 + varLongSize(timestampDelta) + varIntSize(offsetDelta) + sizeOfBytes(key) + sizeOfBytes(value);
  body += varIntSize(headerKeys.length);
  for (let i = 0; i < headerKeys.length; i += 1) body += sizeOfBytes(headerKeys[i]) + sizeOfBytes(headerValues[i]);
  const size = varIntSize(body) + body;
  // Pooled and not zero-filled: every byte of it is written below.
  const buf = Buffer.allocUnsafe(size);
  let at = writeVarInt(buf, 0, body);
  buf[at++] = 0; // attributes: none
  at = writeVarLong(buf, at, timestampDelta);
  at = writeVarInt(buf, at, offsetDelta);
  at = writeBytes(buf, at, key);
  at = writeBytes(buf, at, value);
  at = writeVarInt(buf, at, headerKeys.length);
  for (let i = 0; i < headerKeys.length; i += 1) {
    at = writeBytes(buf, at, headerKeys[i]);
    at = writeBytes(buf, at, headerValues[i]);
  }
  if (at !== size) throw new Error(`kafka record encoded in ${at} bytes, ${size} expected`);
  const encoder = Object.create(Encoder.prototype) as RecordEncoder;
  encoder.buf = buf;
  encoder.offset = size;
  return encoder;
}

/**
 * Makes kafkajs's produce requests encode their records with `encodeRecord`.
 * Answers false when it could not (a produce request had already loaded
 * kafkajs's own encoder, which it then keeps: the same bytes, only slower).
 */
export function installRecordEncoder(): boolean {
  if (require.cache[require.resolve(PRODUCE_REQUEST_MODULE)]) return false;
  const cached = require.cache[require.resolve(RECORD_MODULE)];
  if (!cached) return false;
  cached.exports = encodeRecord;
  // OpenTelemetry's require hook (require-in-the-middle, which the kafkajs
  // instrumentation has watch kafkajs's own files) answers a module it has
  // seen from a copy of its exports it keeps on the cached module, under a
  // symbol of its own: that copy too.
  for (const symbol of Object.getOwnPropertySymbols(cached)) {
    if (symbol.description === 'RitmExports') (cached as unknown as Record<symbol, unknown>)[symbol] = encodeRecord;
  }
  return require(RECORD_MODULE) === encodeRecord;
}
