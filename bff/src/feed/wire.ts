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
