import { AppError, badRequest, type ClientStream } from '@spinroom/platform/core';
import busboy from 'busboy';
import type { Request } from 'express';

/** Room for the multipart framing and the form fields around the file. */
const FORM_OVERHEAD_BYTES = 64 * 1024;

function tooLarge(maxBytes: number): AppError {
  const mb = maxBytes / (1024 * 1024);
  return new AppError(413, `The file is larger than the ${Number.isInteger(mb) ? mb : mb.toFixed(1)} MB upload limit`);
}

/** One part of an upload as the services' streaming RPCs take it (a `oneof part` of these four). */
export type MultipartPart<F extends string> =
  | { $case: 'fields'; value: Partial<Record<F, string>> }
  | { $case: 'file'; value: { fileName: string; contentType: string } }
  | { $case: 'chunk'; value: Buffer }
  | { $case: 'end'; value: { sizeBytes: number } };

export interface MultipartOptions<F extends string, Req> {
  maxBytes: number;
  /** The form fields passed on (others are ignored); the file is always the field "file". */
  fields: readonly F[];
  /** What the file is, for the messages ("audio", "image"). */
  noun: string;
  /** Fields sent before the form's own (e.g. the id a path names). */
  initialFields?: Partial<Record<F, string>>;
  /** The call's message around one part. */
  message(part: MultipartPart<F>): Req;
}

/**
 * Streams a multipart/form-data upload (the field `file` and the given form
 * fields) into a client-streaming call, chunk by chunk as busboy reads it,
 * without buffering the file: the call's backpressure pauses the request. The
 * size limit is enforced while streaming. On any failure the call is
 * cancelled (the service removes what it had received) and the rest of the
 * request body is drained, so the client reads the error.
 */
export async function streamMultipart<F extends string, Req, Res>(
  req: Request,
  open: () => ClientStream<Req, Res>,
  options: MultipartOptions<F, Req>,
): Promise<Res> {
  const { maxBytes, noun, message } = options;
  if (!/^multipart\/form-data/i.test(req.headers['content-type'] ?? '')) {
    throw new AppError(415, `Expected a multipart/form-data body with the ${noun} file in the field "file"`);
  }
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes + FORM_OVERHEAD_BYTES) {
    req.resume();
    throw tooLarge(maxBytes);
  }

  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: req.headers,
      limits: { fileSize: maxBytes, files: 1, fields: 20, fieldSize: 1024, parts: 24 },
    });
  } catch {
    req.resume();
    throw badRequest('Malformed multipart/form-data body');
  }
  const call = open();
  let chain: Promise<void> = Promise.resolve();
  let sawFile = false;
  let sizeBytes = 0;
  let failure: unknown;
  // Parts are sent in the order they arrive; each waits for the one before.
  // A step skipped after a failure still lets busboy read on (`skip`).
  const then = (step: () => Promise<void>, skip: () => void = () => undefined) => {
    chain = chain
      .then(() => (failure === undefined ? step() : skip()))
      .catch((error: unknown) => {
        failure ??= error;
      });
  };
  const { initialFields } = options;
  if (initialFields) then(() => call.write(message({ $case: 'fields', value: initialFields })));

  const finished = new Promise<void>((resolve, reject) => {
    parser.on('field', (name, value) => {
      if ((options.fields as readonly string[]).includes(name)) {
        then(() => call.write(message({ $case: 'fields', value: { [name]: value } as Partial<Record<F, string>> })));
      }
    });
    parser.on('file', (name, stream, info) => {
      // busboy destroys a file stream with an error when the form breaks off
      // inside it, whether or not it is still being read: always listened to.
      stream.on('error', () => {
        failure ??= badRequest('Malformed multipart/form-data body');
      });
      if (name !== 'file' || sawFile) {
        stream.resume();
        failure ??= badRequest(
          name !== 'file'
            ? `Unexpected file field "${name}"; send the ${noun} in the field "file"`
            : 'Only one file can be uploaded at a time',
        );
        return;
      }
      sawFile = true;
      stream.once('limit', () => {
        failure ??= tooLarge(maxBytes);
      });
      then(
        async () => {
          await call.write(message({ $case: 'file', value: { fileName: info.filename ?? '', contentType: info.mimeType ?? '' } }));
          let sent = 0;
          for await (const chunk of stream as AsyncIterable<Buffer>) {
            if (failure !== undefined) continue; // drained, so busboy reads on to the end
            await call.write(message({ $case: 'chunk', value: chunk }));
            sent += chunk.length;
          }
          if ((stream as { truncated?: boolean }).truncated) failure ??= tooLarge(maxBytes);
          sizeBytes = sent;
        },
        () => stream.resume(),
      );
    });
    parser.on('filesLimit', () => (failure ??= badRequest('Only one file can be uploaded at a time')));
    parser.on('partsLimit', () => (failure ??= badRequest('Too many parts in the form')));
    parser.on('fieldsLimit', () => (failure ??= badRequest('Too many fields in the form')));
    parser.once('close', () => resolve());
    // busboy emits one error per malformed part header, and may go on after the
    // first: every one must find a listener for as long as the parser lives.
    parser.on('error', () => reject(badRequest('Malformed multipart/form-data body')));
    req.once('close', () => {
      if (!req.complete) reject(new AppError(400, 'The upload was interrupted'));
    });
  });
  finished.catch(() => undefined); // also observed below; never an unhandled rejection
  req.pipe(parser);

  try {
    // A refusal by the service (e.g. 415 on the declared type) ends the wait early.
    await Promise.race([finished.then(() => chain), call.response.then(() => undefined)]);
    // eslint-disable-next-line @typescript-eslint/only-throw-error -- what a step threw (an AppError or the stream's Error), rethrown as it came
    if (failure !== undefined) throw failure;
    if (!sawFile) throw badRequest('A file is required in the form field "file"');
    await call.write(message({ $case: 'end', value: { sizeBytes } }));
    return await call.end();
  } catch (error) {
    call.cancel();
    req.unpipe(parser);
    parser.removeAllListeners('file');
    req.resume(); // drain what the client still sends, so it can read our answer
    throw error instanceof AppError ? error : (failure ?? error);
  }
}
