import { promisify } from 'node:util';
import { constants, deflateRaw } from 'node:zlib';
import * as wsLib from 'ws';

/** The options of ws's `Sender.frame` (lib/sender.js; not in @types/ws). */
interface FrameOptions {
  fin: boolean;
  opcode: number;
  mask: boolean;
  readOnly: boolean;
  rsv1: boolean;
}
const { Sender } = wsLib as unknown as { Sender: { frame(data: Buffer, options: FrameOptions): Buffer[] } };

const TEXT = 0x01;
/** RSV1 on a message's first frame: its payload is compressed (permessage-deflate, RFC 7692 6). */
const RSV1 = 0x40;

/**
 * `text` as one complete WebSocket text message, framed as a server sends it
 * (unmasked, uncompressed), header and payload in one buffer: the same bytes
 * `ws`'s `send(text)` writes. A room's message is framed once and this buffer
 * written to every socket in the room; the buffer is never written into after,
 * so sockets that have not flushed it yet can share it.
 */
export function textFrame(text: string): Buffer {
  const [header, payload] = Sender.frame(Buffer.from(text), { fin: true, opcode: TEXT, mask: false, readOnly: true, rsv1: false });
  return payload ? Buffer.concat([header!, payload]) : header!;
}

/**
 * The header of one complete, unmasked WebSocket text message of `length`
 * payload bytes (RFC 6455 5.2), compressed (RSV1 set) or not: written before a
 * payload made of several buffers (a joiner's own bytes, then a room's shared
 * ones), so the shared ones are written as they are, not copied into each
 * socket's message.
 */
export function textFrameHeader(length: number, compressed = false): Buffer {
  const first = 0x80 | TEXT | (compressed ? RSV1 : 0);
  if (length < 126) return Buffer.from([first, length]);
  if (length < 65_536) {
    const header = Buffer.from([first, 126, 0, 0]);
    header.writeUInt16BE(length, 2);
    return header;
  }
  const header = Buffer.alloc(10);
  header[0] = first;
  header[1] = 127;
  header.writeBigUInt64BE(BigInt(length), 2);
  return header;
}

const deflateRawAsync = promisify(deflateRaw);
/** The empty stored block a sync flush ends with: left off the wire, the receiver puts it back (RFC 7692 7.2.1). */
const SYNC_FLUSH_TAIL = 4;

/**
 * `payload` compressed as permessage-deflate sends a message with no context
 * taken over (RFC 7692 7.2.1): raw DEFLATE, flushed, not final, without the
 * trailing 00 00 ff ff. It refers to nothing before its own start, so it can
 * follow other blocks (`storedBlock`) in one message, and be written to any
 * socket that negotiated the extension (with a window of 15 bits: zlib's
 * default here). Runs on libuv's pool, off the event loop.
 */
export async function deflated(payload: Buffer): Promise<Buffer> {
  const out = await deflateRawAsync(payload, { level: DEFLATE_LEVEL, finishFlush: constants.Z_SYNC_FLUSH });
  return out.subarray(0, out.length - SYNC_FLUSH_TAIL);
}

/** zlib's fastest level: the room's JSON (uuids, names) loses little against 6, and it is compressed once per room version. */
const DEFLATE_LEVEL = 1;

/** `text` as one compressed WebSocket text message (RSV1), framed once for every socket that negotiated permessage-deflate. */
export async function deflatedTextFrame(text: string | Buffer): Promise<Buffer> {
  const payload = await deflated(typeof text === 'string' ? Buffer.from(text) : text);
  return Buffer.concat([textFrameHeader(payload.length, true), payload]);
}

/**
 * `bytes` as one DEFLATE stored block, not final (RFC 1951 3.2.4): copied as
 * they are by the receiver's inflater. A socket's own few bytes go first in a
 * compressed message this way, before a room's bytes compressed once
 * (`deflated`), with no compression per socket.
 */
export function storedBlock(bytes: Buffer): Buffer {
  if (bytes.length > 0xffff) throw new Error('a stored block holds at most 65,535 bytes');
  const header = Buffer.from([0x00, 0, 0, 0, 0]); // BFINAL 0, BTYPE 00, then to the byte's end
  header.writeUInt16LE(bytes.length, 1);
  header.writeUInt16LE(~bytes.length & 0xffff, 3);
  return Buffer.concat([header, bytes]);
}
