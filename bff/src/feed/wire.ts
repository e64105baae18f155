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
 * The header of one complete, unmasked, uncompressed WebSocket text message
 * of `length` payload bytes (RFC 6455 5.2): written before a payload made of
 * several buffers (a joiner's own bytes, then a room's shared ones), so the
 * shared ones are written as they are, not copied into each socket's message.
 */
export function textFrameHeader(length: number): Buffer {
  if (length < 126) return Buffer.from([0x80 | TEXT, length]);
  if (length < 65_536) {
    const header = Buffer.from([0x80 | TEXT, 126, 0, 0]);
    header.writeUInt16BE(length, 2);
    return header;
  }
  const header = Buffer.alloc(10);
  header[0] = 0x80 | TEXT;
  header[1] = 127;
  header.writeBigUInt64BE(BigInt(length), 2);
  return header;
}
