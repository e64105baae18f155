import { verify as verifySignature, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { AppError } from '@spinroom/platform';

/** Apple marks the certificates of its App Store signing chain with these extensions (as Apple's own library checks). */
export const APPLE_LEAF_OID = '1.2.840.113635.100.6.11.1';
export const APPLE_INTERMEDIATE_OID = '1.2.840.113635.100.6.2.1';

export const APPLE_UNAVAILABLE = "Apple's notifications are not available: no Apple root certificate is configured on this server";
const NOT_APPLE = "The signed payload does not verify: this is not Apple's notification";

/** The certificates of a PEM text (one or more `-----BEGIN CERTIFICATE-----` blocks). */
export function certificatesOfPem(pem: string): X509Certificate[] {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  return blocks.map((block) => new X509Certificate(block));
}

/** The trusted roots: APPLE_ROOT_CERT_PEM (the PEM itself), else the PEM file APPLE_ROOT_CERT_FILE; none when neither is set. */
export function appleRoots(config: { APPLE_ROOT_CERT_PEM?: string; APPLE_ROOT_CERT_FILE?: string }): X509Certificate[] {
  const pem = config.APPLE_ROOT_CERT_PEM ?? (config.APPLE_ROOT_CERT_FILE ? readFileSync(config.APPLE_ROOT_CERT_FILE, 'utf8') : '');
  const roots = certificatesOfPem(pem.replace(/\\n/g, '\n'));
  if (pem && roots.length === 0) throw new Error('APPLE_ROOT_CERT_PEM / APPLE_ROOT_CERT_FILE holds no PEM certificate');
  return roots;
}

// A few lines of DER: enough to list a certificate's extensions, which
// node's X509Certificate does not expose.
interface Tlv {
  tag: number;
  start: number;
  end: number;
}

function tlv(der: Buffer, offset: number): Tlv {
  const tag = der[offset];
  let length = der[offset + 1];
  if (tag === undefined || length === undefined) throw new Error('truncated DER');
  let start = offset + 2;
  if (length & 0x80) {
    const bytes = length & 0x7f;
    if (bytes === 0 || bytes > 4) throw new Error('unsupported DER length');
    length = 0;
    for (let i = 0; i < bytes; i++) length = length * 256 + (der[start + i] ?? 0);
    start += bytes;
  }
  const end = start + length;
  if (end > der.length) throw new Error('truncated DER');
  return { tag, start, end };
}

function children(der: Buffer, parent: Tlv): Tlv[] {
  const list: Tlv[] = [];
  for (let offset = parent.start; offset < parent.end; offset = list.at(-1)!.end) list.push(tlv(der, offset));
  return list;
}

function oidString(bytes: Buffer): string {
  const first = bytes[0] ?? 0;
  const parts = [Math.floor(first / 40), first % 40];
  let value = 0;
  for (const byte of bytes.subarray(1)) {
    value = value * 128 + (byte & 0x7f);
    if (!(byte & 0x80)) {
      parts.push(value);
      value = 0;
    }
  }
  return parts.join('.');
}

/** The OIDs of a certificate's extensions (tbsCertificate's [3]). */
export function extensionOids(certificate: X509Certificate): string[] {
  const der = certificate.raw;
  const [tbs] = children(der, tlv(der, 0));
  if (!tbs) return [];
  const extensions = children(der, tbs).find((field) => field.tag === 0xa3);
  if (!extensions) return [];
  const [sequence] = children(der, extensions);
  if (!sequence) return [];
  return children(der, sequence).map((extension) => {
    const [oid] = children(der, extension);
    return oid && oid.tag === 0x06 ? oidString(der.subarray(oid.start, oid.end)) : '';
  });
}

const validAt = (certificate: X509Certificate, at: Date) =>
  new Date(certificate.validFrom).getTime() <= at.getTime() && at.getTime() <= new Date(certificate.validTo).getTime();

/**
 * Verifies App Store JWS (notifications and their signed transaction and
 * renewal info) as Apple's SignedDataVerifier does offline: the header's x5c
 * chain is a leaf signed by an intermediate signed by one of the trusted
 * roots (a third certificate in x5c must be that root, byte for byte), all
 * valid now, the intermediate a CA, the two carrying Apple's marker
 * extensions; then the ES256 signature of the JWS by the leaf's P-256 key.
 */
export class AppleJwsVerifier {
  constructor(
    private readonly roots: X509Certificate[],
    private readonly now: () => Date = () => new Date(),
  ) {}

  verify(jws: string): Record<string, unknown> {
    try {
      return this.verifyOrThrow(jws);
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw new AppError(400, NOT_APPLE);
    }
  }

  private verifyOrThrow(jws: string): Record<string, unknown> {
    const parts = jws.split('.');
    if (parts.length !== 3) throw new AppError(400, 'The signed payload is not a compact JWS');
    const [encodedHeader, encodedPayload, encodedSignature] = parts as [string, string, string];
    const header = JSON.parse(Buffer.from(encodedHeader, 'base64url').toString('utf8')) as { alg?: unknown; x5c?: unknown };
    if (header.alg !== 'ES256') throw new AppError(400, `${NOT_APPLE} (alg must be ES256)`);
    if (!Array.isArray(header.x5c) || header.x5c.length < 2 || header.x5c.length > 3 || !header.x5c.every((c) => typeof c === 'string')) {
      throw new AppError(400, `${NOT_APPLE} (x5c must hold the leaf, the intermediate and the root)`);
    }
    const chain = header.x5c.map((encoded) => new X509Certificate(Buffer.from(encoded, 'base64')));
    const [leaf, intermediate, given] = chain as [X509Certificate, X509Certificate, X509Certificate | undefined];
    const now = this.now();
    const root = this.roots.find((candidate) => intermediate.checkIssued(candidate) && intermediate.verify(candidate.publicKey));
    if (!root) throw new AppError(400, `${NOT_APPLE} (its certificate chain does not lead to the trusted Apple root)`);
    const chainHolds =
      (!given || given.raw.equals(root.raw)) &&
      leaf.checkIssued(intermediate) &&
      leaf.verify(intermediate.publicKey) &&
      intermediate.ca &&
      !leaf.ca &&
      [leaf, intermediate, root].every((certificate) => validAt(certificate, now)) &&
      extensionOids(leaf).includes(APPLE_LEAF_OID) &&
      extensionOids(intermediate).includes(APPLE_INTERMEDIATE_OID);
    if (!chainHolds) throw new AppError(400, `${NOT_APPLE} (its certificate chain does not verify)`);
    const key = leaf.publicKey;
    if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') {
      throw new AppError(400, `${NOT_APPLE} (the leaf's key is not P-256)`);
    }
    const signed = Buffer.from(`${encodedHeader}.${encodedPayload}`);
    const signature = Buffer.from(encodedSignature, 'base64url');
    if (!verifySignature('sha256', signed, { key, dsaEncoding: 'ieee-p1363' }, signature)) {
      throw new AppError(400, `${NOT_APPLE} (its signature does not verify)`);
    }
    const payload: unknown = JSON.parse(Buffer.from(encodedPayload, 'base64url').toString('utf8'));
    if (typeof payload !== 'object' || payload === null || Array.isArray(payload))
      throw new AppError(400, 'The signed payload is not an object');
    return payload as Record<string, unknown>;
  }
}
