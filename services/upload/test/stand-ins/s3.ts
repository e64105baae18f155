import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { crc32 } from 'node:zlib';

/**
 * A local stand-in for an S3-compatible object store, answering as S3 does
 * for what `S3Store` (through AWS SDK v3) sends: path-style CreateBucket,
 * HeadBucket, PutObject (plain or `aws-chunked` bodies, with or without a
 * checksum trailer), GetObject, HeadObject, DeleteObject, ListObjectsV2
 * (continuation tokens, a server-side page cap to exercise pagination) and
 * DeleteObjects (at most 1000 keys, Content-MD5 or x-amz-checksum-* required).
 *
 * Every request must carry a SigV4 `Authorization` header whose signature
 * this server recomputes: an unknown access key is 403 InvalidAccessKeyId, a
 * wrong signature 403 SignatureDoesNotMatch, a payload whose SHA-256 or
 * checksum disagrees 400 XAmzContentSHA256Mismatch / BadDigest. Anything else
 * is 501 NotImplemented, so a new call the store starts making shows up.
 */
export interface S3StandInOptions {
  accessKeyId: string;
  secretAccessKey: string;
  region?: string;
  /** Buckets that exist from the start. */
  buckets?: string[];
  /** Most keys one ListObjectsV2 page returns, whatever max-keys asks (S3: 1000). */
  maxKeysCap?: number;
}

export interface StoredObject {
  body: Buffer;
  contentType: string;
  etag: string;
  lastModified: Date;
  /** Base64 CRC32 when the writer sent one (S3 keeps and returns it). */
  crc32?: string;
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string | string[] | undefined>;
  /** The body length as received (framing included) and after aws-chunked decoding. */
  rawBytes: number;
  bodyBytes: number;
  status: number;
}

export interface S3StandIn {
  endpoint: string;
  buckets: Map<string, Map<string, StoredObject>>;
  /** The keys in a bucket, sorted. */
  keys(bucket: string): string[];
  requests: RecordedRequest[];
  stop(): Promise<void>;
}

const XMLNS = 'http://s3.amazonaws.com/doc/2006-03-01/';

class S3Error extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extra: Record<string, string> = {},
  ) {
    super(message);
  }
}

const xmlEscape = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
const xmlUnescape = (s: string) =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)))
    .replace(/&#x([0-9a-f]+);/gi, (_, n: string) => String.fromCodePoint(parseInt(n, 16)))
    .replace(/&amp;/g, '&');
/** RFC 3986 encoding, as SigV4 canonicalises query strings. */
const uriEncode = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');
const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data).digest();
const crc32Base64 = (data: Buffer) => {
  const out = Buffer.alloc(4);
  out.writeUInt32BE(crc32(data));
  return out.toString('base64');
};

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** The query string as sent, decoded, in order (`?delete` is `delete=""`). */
function parseQuery(raw: string): Array<[string, string]> {
  if (!raw) return [];
  return raw.split('&').map((pair) => {
    const at = pair.indexOf('=');
    const [name, value] = at < 0 ? [pair, ''] : [pair.slice(0, at), pair.slice(at + 1)];
    return [decodeURIComponent(name), decodeURIComponent(value)];
  });
}

/**
 * Decodes an `aws-chunked` body: `<hex size>[;chunk-signature=...]\r\n<data>\r\n`
 * ... `0[;...]\r\n`, then trailer lines (`x-amz-checksum-crc32:...`) and `\r\n`.
 */
function decodeAwsChunked(body: Buffer): { data: Buffer; trailers: Record<string, string> } {
  const chunks: Buffer[] = [];
  const trailers: Record<string, string> = {};
  let pos = 0;
  const line = () => {
    const end = body.indexOf('\r\n', pos);
    if (end < 0) throw new S3Error(400, 'IncompleteBody', 'The request body terminated unexpectedly');
    const text = body.subarray(pos, end).toString('latin1');
    pos = end + 2;
    return text;
  };
  for (;;) {
    const size = parseInt(line().split(';')[0]!, 16);
    if (!Number.isFinite(size) || size < 0)
      throw new S3Error(400, 'InvalidChunkSizeError', 'Only the last chunk is allowed to have a size less than 8192 bytes');
    if (size === 0) break;
    if (pos + size + 2 > body.length) throw new S3Error(400, 'IncompleteBody', 'The request body terminated unexpectedly');
    chunks.push(body.subarray(pos, pos + size));
    pos += size;
    if (body.subarray(pos, pos + 2).toString('latin1') !== '\r\n')
      throw new S3Error(400, 'IncompleteBody', 'Chunk is not followed by CRLF');
    pos += 2;
  }
  while (pos < body.length) {
    const text = line();
    if (text === '') break;
    const colon = text.indexOf(':');
    trailers[text.slice(0, colon).trim().toLowerCase()] = text.slice(colon + 1).trim();
  }
  return { data: Buffer.concat(chunks), trailers };
}

export async function startS3StandIn(options: S3StandInOptions): Promise<S3StandIn> {
  const region = options.region ?? 'us-east-1';
  const cap = options.maxKeysCap ?? 1000;
  const buckets = new Map<string, Map<string, StoredObject>>((options.buckets ?? []).map((name) => [name, new Map()]));
  const requests: RecordedRequest[] = [];

  /** Checks the SigV4 Authorization header, recomputing the signature. */
  function authenticate(req: IncomingMessage, rawPath: string, query: Array<[string, string]>) {
    const header = req.headers.authorization;
    if (!header) throw new S3Error(403, 'AccessDenied', 'Access Denied');
    const match =
      /^AWS4-HMAC-SHA256 Credential=([^/,\s]+)\/(\d{8})\/([^/,\s]+)\/([^/,\s]+)\/aws4_request,\s*SignedHeaders=([a-z0-9;-]+),\s*Signature=([0-9a-f]{64})$/.exec(
        header,
      );
    if (!match) throw new S3Error(400, 'AuthorizationHeaderMalformed', 'The authorization header is malformed.');
    const [, accessKey, date, scopeRegion, service, signedHeaders, signature] = match as unknown as string[];
    if (accessKey !== options.accessKeyId) {
      throw new S3Error(403, 'InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist in our records.', {
        AWSAccessKeyId: accessKey!,
      });
    }
    if (scopeRegion !== region || service !== 's3') {
      throw new S3Error(
        400,
        'AuthorizationHeaderMalformed',
        `The authorization header is malformed; the region '${scopeRegion}' is wrong; expecting '${region}'`,
        { Region: region },
      );
    }
    const amzDate = String(req.headers['x-amz-date'] ?? '');
    const when = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(amzDate);
    if (!when || !amzDate.startsWith(date!))
      throw new S3Error(403, 'AccessDenied', 'AWS authentication requires a valid Date or x-amz-date header');
    const time = Date.UTC(+when[1]!, +when[2]! - 1, +when[3]!, +when[4]!, +when[5]!, +when[6]!);
    if (Math.abs(Date.now() - time) > 15 * 60_000) {
      throw new S3Error(403, 'RequestTimeTooSkewed', 'The difference between the request time and the current time is too large.');
    }
    const payloadHash = req.headers['x-amz-content-sha256'];
    if (typeof payloadHash !== 'string')
      throw new S3Error(400, 'InvalidRequest', 'Missing required header for this request: x-amz-content-sha256');
    const names = signedHeaders!.split(';');
    if (!names.includes('host')) throw new S3Error(403, 'AccessDenied', 'Host must be a signed header');
    const canonicalHeaders = names
      .map((name) => {
        const value = req.headers[name];
        const text = Array.isArray(value) ? value.join(',') : (value ?? '');
        return `${name}:${text.trim().replace(/\s+/g, ' ')}\n`;
      })
      .join('');
    const canonicalQuery = query
      .map(([name, value]) => [uriEncode(name), uriEncode(value)] as const)
      .sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
      .map(([name, value]) => `${name}=${value}`)
      .join('&');
    const canonicalRequest = [req.method, rawPath, canonicalQuery, canonicalHeaders, signedHeaders, payloadHash].join('\n');
    const scope = `${date}/${scopeRegion}/s3/aws4_request`;
    const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonicalRequest)].join('\n');
    const signingKey = hmac(hmac(hmac(hmac(`AWS4${options.secretAccessKey}`, date!), scopeRegion), 's3'), 'aws4_request');
    const expected = hmac(signingKey, stringToSign);
    if (!timingSafeEqual(expected, Buffer.from(signature!, 'hex'))) {
      throw new S3Error(
        403,
        'SignatureDoesNotMatch',
        'The request signature we calculated does not match the signature you provided. Check your key and signing method.',
        {
          AWSAccessKeyId: accessKey,
          StringToSign: stringToSign,
          CanonicalRequest: canonicalRequest,
        },
      );
    }
    return payloadHash;
  }

  /** The payload after signature, SHA-256 and checksum checks, with aws-chunked framing removed. */
  function payload(req: IncomingMessage, raw: Buffer, payloadHash: string): { data: Buffer; crc32?: string } {
    if (/^[0-9a-f]{64}$/.test(payloadHash) && sha256(raw) !== payloadHash) {
      throw new S3Error(400, 'XAmzContentSHA256Mismatch', "The provided 'x-amz-content-sha256' header does not match what was computed.");
    }
    let data = raw;
    let trailers: Record<string, string> = {};
    const chunked =
      String(req.headers['content-encoding'] ?? '')
        .split(',')
        .some((e) => e.trim() === 'aws-chunked') || payloadHash.startsWith('STREAMING-');
    if (chunked) {
      ({ data, trailers } = decodeAwsChunked(raw));
      const declared = req.headers['x-amz-decoded-content-length'];
      if (declared === undefined) throw new S3Error(411, 'MissingContentLength', 'You must provide the Content-Length HTTP header.');
      if (Number(declared) !== data.length)
        throw new S3Error(400, 'IncompleteBody', 'You did not provide the number of bytes specified by the Content-Length HTTP header');
      const announced = String(req.headers['x-amz-trailer'] ?? '').toLowerCase();
      if (announced && !(announced in trailers))
        throw new S3Error(
          400,
          'MalformedTrailerError',
          'The request contained trailing data that was not well-formed or did not conform to our published schema.',
        );
    }
    const crc = trailers['x-amz-checksum-crc32'] ?? (req.headers['x-amz-checksum-crc32'] as string | undefined);
    if (crc !== undefined && crc !== crc32Base64(data))
      throw new S3Error(400, 'BadDigest', 'The CRC32 you specified did not match the calculated checksum.');
    const sha = trailers['x-amz-checksum-sha256'] ?? (req.headers['x-amz-checksum-sha256'] as string | undefined);
    if (sha !== undefined && sha !== createHash('sha256').update(data).digest('base64'))
      throw new S3Error(400, 'BadDigest', 'The SHA256 you specified did not match the calculated checksum.');
    const md5 = req.headers['content-md5'];
    if (typeof md5 === 'string' && md5 !== createHash('md5').update(data).digest('base64'))
      throw new S3Error(400, 'BadDigest', 'The Content-MD5 you specified did not match what we received.');
    return { data, crc32: crc };
  }

  const xml = (res: ServerResponse, status: number, body: string) => {
    const text = `<?xml version="1.0" encoding="UTF-8"?>\n${body}`;
    res.writeHead(status, { 'content-type': 'application/xml', 'content-length': Buffer.byteLength(text) });
    res.end(text);
  };

  function objectHeaders(object: StoredObject, checksumMode: boolean): Record<string, string | number> {
    return {
      'content-type': object.contentType,
      'content-length': object.body.length,
      etag: object.etag,
      'last-modified': object.lastModified.toUTCString(),
      'accept-ranges': 'bytes',
      ...(checksumMode && object.crc32 ? { 'x-amz-checksum-crc32': object.crc32, 'x-amz-checksum-type': 'FULL_OBJECT' } : {}),
    };
  }

  async function handle(req: IncomingMessage, res: ServerResponse, record: RecordedRequest) {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const rawPath = q < 0 ? url : url.slice(0, q);
    const queryList = parseQuery(q < 0 ? '' : url.slice(q + 1));
    const query = Object.fromEntries(queryList);
    record.path = decodeURIComponent(rawPath);
    record.query = query;
    const raw = await readBody(req);
    record.rawBytes = raw.length;
    const payloadHash = authenticate(req, rawPath, queryList);
    const segments = rawPath.split('/').slice(1);
    const bucketName = decodeURIComponent(segments[0] ?? '');
    const key = segments.slice(1).map(decodeURIComponent).join('/');
    const method = req.method ?? 'GET';
    const resource = `/${bucketName}${key ? `/${key}` : ''}`;
    if (!bucketName) throw new S3Error(501, 'NotImplemented', 'ListBuckets is not supported by this stand-in');

    if (!key && method === 'PUT' && Object.keys(query).filter((n) => n !== 'x-id').length === 0) {
      // CreateBucket
      if (buckets.has(bucketName))
        throw new S3Error(
          409,
          'BucketAlreadyOwnedByYou',
          'Your previous request to create the named bucket succeeded and you already own it.',
          { BucketName: bucketName },
        );
      buckets.set(bucketName, new Map());
      res.writeHead(200, { location: `/${bucketName}`, 'content-length': 0 });
      res.end();
      return;
    }
    const bucket = buckets.get(bucketName);
    if (!bucket) throw new S3Error(404, 'NoSuchBucket', 'The specified bucket does not exist', { BucketName: bucketName });

    if (!key) {
      if (method === 'HEAD' && queryList.length === 0) {
        res.writeHead(200, { 'x-amz-bucket-region': region, 'content-length': 0 });
        res.end();
        return;
      }
      if (method === 'GET' && query['list-type'] === '2') return listObjectsV2(res, bucketName, bucket, query);
      if (method === 'POST' && 'delete' in query) return deleteObjects(req, res, bucket, raw, payloadHash);
      throw new S3Error(501, 'NotImplemented', `${method} ${url} is not supported by this stand-in`);
    }

    const extra = Object.keys(query).filter((n) => n !== 'x-id');
    if (extra.length > 0 || req.headers['x-amz-copy-source'] || req.headers.range) {
      throw new S3Error(501, 'NotImplemented', `${method} ${url} (${extra.join(', ') || 'copy/range'}) is not supported by this stand-in`);
    }
    if (method === 'PUT') {
      const { data, crc32: crc } = payload(req, raw, payloadHash);
      record.bodyBytes = data.length;
      const object: StoredObject = {
        body: data,
        contentType: String(req.headers['content-type'] ?? 'binary/octet-stream'),
        etag: `"${createHash('md5').update(data).digest('hex')}"`,
        lastModified: new Date(Math.floor(Date.now() / 1000) * 1000),
        ...(crc ? { crc32: crc } : {}),
      };
      bucket.set(key, object);
      res.writeHead(200, { etag: object.etag, 'content-length': 0, ...(crc ? { 'x-amz-checksum-crc32': crc } : {}) });
      res.end();
      return;
    }
    if (method === 'GET' || method === 'HEAD') {
      const object = bucket.get(key);
      if (!object) {
        if (method === 'HEAD') {
          res.writeHead(404, { 'content-length': 0 }); // HEAD answers carry no body, so no error code either
          res.end();
          return;
        }
        throw new S3Error(404, 'NoSuchKey', 'The specified key does not exist.', { Key: key });
      }
      res.writeHead(200, objectHeaders(object, req.headers['x-amz-checksum-mode'] === 'ENABLED'));
      res.end(method === 'HEAD' ? undefined : object.body);
      return;
    }
    if (method === 'DELETE') {
      bucket.delete(key);
      res.writeHead(204);
      res.end();
      return;
    }
    throw new S3Error(405, 'MethodNotAllowed', 'The specified method is not allowed against this resource.', {
      Method: method,
      ResourceType: 'OBJECT',
      Resource: resource,
    });
  }

  function listObjectsV2(res: ServerResponse, name: string, bucket: Map<string, StoredObject>, query: Record<string, string>) {
    if (query.delimiter) throw new S3Error(501, 'NotImplemented', 'delimiter is not supported by this stand-in');
    const prefix = query.prefix ?? '';
    const asked = query['max-keys'] === undefined ? 1000 : Number(query['max-keys']);
    if (!Number.isInteger(asked) || asked < 0)
      throw new S3Error(400, 'InvalidArgument', 'Provided max-keys not an integer or within integer range', { ArgumentName: 'max-keys' });
    const maxKeys = Math.min(asked, cap);
    let after = query['start-after'] ?? '';
    const token = query['continuation-token'];
    if (token !== undefined) {
      const decoded = Buffer.from(token, 'base64url').toString('utf8');
      if (!decoded.startsWith('t1:'))
        throw new S3Error(400, 'InvalidArgument', 'The continuation token provided is incorrect', { ArgumentName: 'continuation-token' });
      after = decoded.slice(3);
    }
    const matching = [...bucket.keys()].filter((k) => k.startsWith(prefix) && k > after).sort();
    const page = matching.slice(0, maxKeys);
    const truncated = matching.length > page.length;
    const urlEncoded = query['encoding-type'] === 'url';
    const enc = (s: string) => xmlEscape(urlEncoded ? encodeURIComponent(s).replace(/%2F/g, '/') : s);
    const contents = page
      .map((k) => {
        const o = bucket.get(k)!;
        return `<Contents><Key>${enc(k)}</Key><LastModified>${o.lastModified.toISOString()}</LastModified><ETag>${xmlEscape(o.etag)}</ETag><Size>${o.body.length}</Size><StorageClass>STANDARD</StorageClass></Contents>`;
      })
      .join('');
    xml(
      res,
      200,
      `<ListBucketResult xmlns="${XMLNS}"><Name>${xmlEscape(name)}</Name><Prefix>${enc(prefix)}</Prefix>` +
        (query['start-after'] ? `<StartAfter>${enc(query['start-after'])}</StartAfter>` : '') +
        `<KeyCount>${page.length}</KeyCount><MaxKeys>${asked}</MaxKeys>` +
        (urlEncoded ? '<EncodingType>url</EncodingType>' : '') +
        `<IsTruncated>${truncated}</IsTruncated>` +
        (token !== undefined ? `<ContinuationToken>${xmlEscape(token)}</ContinuationToken>` : '') +
        (truncated ? `<NextContinuationToken>${Buffer.from(`t1:${page.at(-1)}`).toString('base64url')}</NextContinuationToken>` : '') +
        `${contents}</ListBucketResult>`,
    );
  }

  function deleteObjects(req: IncomingMessage, res: ServerResponse, bucket: Map<string, StoredObject>, raw: Buffer, payloadHash: string) {
    const hasChecksum =
      req.headers['content-md5'] !== undefined ||
      Object.keys(req.headers).some((h) => h.startsWith('x-amz-checksum-') && h !== 'x-amz-checksum-mode');
    const trailer = String(req.headers['x-amz-trailer'] ?? '').startsWith('x-amz-checksum-');
    if (!hasChecksum && !trailer)
      throw new S3Error(400, 'InvalidRequest', 'Missing required header for this request: Content-MD5 OR x-amz-checksum-*');
    const { data } = payload(req, raw, payloadHash);
    const text = data.toString('utf8');
    if (!/<Delete[\s>]/.test(text))
      throw new S3Error(400, 'MalformedXML', 'The XML you provided was not well-formed or did not validate against our published schema');
    const keys = [...text.matchAll(/<Object>\s*<Key>([\s\S]*?)<\/Key>[\s\S]*?<\/Object>/g)].map((m) => xmlUnescape(m[1]!));
    if (keys.length === 0 || keys.length > 1000)
      throw new S3Error(400, 'MalformedXML', 'The XML you provided was not well-formed or did not validate against our published schema');
    const quiet = /<Quiet>\s*true\s*<\/Quiet>/i.test(text);
    for (const k of keys) bucket.delete(k);
    const deleted = quiet ? '' : keys.map((k) => `<Deleted><Key>${xmlEscape(k)}</Key></Deleted>`).join('');
    xml(res, 200, `<DeleteResult xmlns="${XMLNS}">${deleted}</DeleteResult>`);
  }

  const server = createServer((req, res) => {
    const requestId = randomBytes(8).toString('hex').toUpperCase();
    res.setHeader('x-amz-request-id', requestId);
    res.setHeader('x-amz-id-2', randomBytes(24).toString('base64'));
    res.setHeader('server', 'AmazonS3');
    const record: RecordedRequest = {
      method: req.method ?? '',
      path: '',
      query: {},
      headers: { ...req.headers },
      rawBytes: 0,
      bodyBytes: 0,
      status: 0,
    };
    requests.push(record);
    res.on('finish', () => (record.status = res.statusCode));
    handle(req, res, record).catch((error: unknown) => {
      const e = error instanceof S3Error ? error : new S3Error(500, 'InternalError', 'We encountered an internal error. Please try again.');
      if (!(error instanceof S3Error)) console.error('S3 stand-in failure', error);
      if (req.method === 'HEAD') {
        res.writeHead(e.status, { 'content-length': 0 });
        res.end();
        return;
      }
      const extra = Object.entries(e.extra)
        .map(([name, value]) => `<${name}>${xmlEscape(value)}</${name}>`)
        .join('');
      xml(
        res,
        e.status,
        `<Error><Code>${e.code}</Code><Message>${xmlEscape(e.message)}</Message>${extra}<RequestId>${requestId}</RequestId><HostId>${res.getHeader('x-amz-id-2')}</HostId></Error>`,
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    buckets,
    keys: (bucket) => [...(buckets.get(bucket)?.keys() ?? [])].sort(),
    requests,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
