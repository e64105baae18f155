// A certificate chain shaped as Apple's App Store signing chain (a root CA,
// an intermediate CA marked 1.2.840.113635.100.6.2.1 and a P-256 leaf marked
// 1.2.840.113635.100.6.11.1), made in the test with @peculiar/x509 on node's
// WebCrypto, and the JWS the App Store signs with it (ES256, x5c header).
import 'reflect-metadata';
import { KeyObject, randomUUID, sign, webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import { APPLE_INTERMEDIATE_OID, APPLE_LEAF_OID } from '../src/apple.js';

x509.cryptoProvider.set(webcrypto);

const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
const DAY = 24 * 60 * 60 * 1000;
/** An extension's value: DER NULL, as Apple's marker extensions carry. */
const NULL_VALUE = new Uint8Array([0x05, 0x00]).buffer;

export interface TestChain {
  /** The root's PEM: what APPLE_ROOT_CERT_PEM names. */
  rootPem: string;
  /** x5c: leaf, intermediate, root (base64 DER). */
  x5c: string[];
  leafKey: KeyObject;
}

async function keys(): Promise<webcrypto.CryptoKeyPair> {
  return webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify']);
}

const base64 = (certificate: x509.X509Certificate) => Buffer.from(certificate.rawData).toString('base64');

/**
 * A root, an intermediate and a leaf. `leafMarked: false` leaves Apple's
 * marker out of the leaf; `leafExpired` makes a leaf whose validity ended yesterday.
 */
export async function makeChain(options: { name?: string; leafMarked?: boolean; leafExpired?: boolean } = {}): Promise<TestChain> {
  const name = options.name ?? 'Test Apple';
  const now = Date.now();
  const [rootKeys, intermediateKeys, leafKeys] = await Promise.all([keys(), keys(), keys()]);
  const root = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: '01',
    name: `CN=${name} Root CA - G3, O=Test`,
    notBefore: new Date(now - DAY),
    notAfter: new Date(now + 365 * DAY),
    keys: rootKeys,
    signingAlgorithm: ALGORITHM,
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign, true),
    ],
  });
  const intermediate = await x509.X509CertificateGenerator.create({
    serialNumber: '02',
    subject: `CN=${name} Worldwide Developer Relations CA - G6, O=Test`,
    issuer: root.subject,
    notBefore: new Date(now - DAY),
    notAfter: new Date(now + 365 * DAY),
    publicKey: intermediateKeys.publicKey,
    signingKey: rootKeys.privateKey,
    signingAlgorithm: ALGORITHM,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign, true),
      new x509.Extension(APPLE_INTERMEDIATE_OID, false, NULL_VALUE),
    ],
  });
  const leaf = await x509.X509CertificateGenerator.create({
    serialNumber: '03',
    subject: `CN=${name} Prod ECC Mac App Store and iTunes Store Receipt Signing, O=Test`,
    issuer: intermediate.subject,
    notBefore: new Date(now - (options.leafExpired ? 10 : 1) * DAY),
    notAfter: new Date(now + (options.leafExpired ? -DAY : 365 * DAY)),
    publicKey: leafKeys.publicKey,
    signingKey: intermediateKeys.privateKey,
    signingAlgorithm: ALGORITHM,
    extensions: [
      new x509.BasicConstraintsExtension(false),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      ...(options.leafMarked === false ? [] : [new x509.Extension(APPLE_LEAF_OID, false, NULL_VALUE)]),
    ],
  });
  return {
    rootPem: root.toString('pem'),
    x5c: [base64(leaf), base64(intermediate), base64(root)],
    leafKey: KeyObject.from(leafKeys.privateKey),
  };
}

/** A compact JWS of `payload`, signed ES256 by the chain's leaf, its x5c in the header (as the App Store signs). */
export function signJws(chain: TestChain, payload: object, header: Record<string, unknown> = {}): string {
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const signingInput = `${encode({ alg: 'ES256', x5c: chain.x5c, ...header })}.${encode(payload)}`;
  const signature = sign('sha256', Buffer.from(signingInput), { key: chain.leafKey, dsaEncoding: 'ieee-p1363' });
  return `${signingInput}.${signature.toString('base64url')}`;
}

export interface AppleTransactionFields {
  productId: string;
  originalTransactionId: string;
  transactionId?: string;
  appAccountToken?: string;
  type?: string;
  purchaseDate?: number;
  expiresDate?: number;
  storefront?: string;
  revocationDate?: number;
}

/** An App Store Server Notification V2's signedPayload, its transaction (and renewal info) signed by the same chain. */
export function appleNotification(
  chain: TestChain,
  notification: {
    notificationType: string;
    subtype?: string;
    signedDate: number;
    notificationUUID?: string;
    bundleId?: string;
    transaction: AppleTransactionFields;
    autoRenewStatus?: 0 | 1;
  },
): { signedPayload: string; notificationUUID: string } {
  const notificationUUID = notification.notificationUUID ?? randomUUID();
  const transaction = {
    transactionId: notification.transaction.transactionId ?? notification.transaction.originalTransactionId,
    originalPurchaseDate: notification.transaction.purchaseDate ?? notification.signedDate,
    bundleId: notification.bundleId ?? 'fm.spinroom.app',
    environment: 'Sandbox',
    signedDate: notification.signedDate,
    ...notification.transaction,
  };
  const data = {
    appAppleId: 1234,
    bundleId: notification.bundleId ?? 'fm.spinroom.app',
    environment: 'Sandbox',
    signedTransactionInfo: signJws(chain, transaction),
    ...(notification.autoRenewStatus === undefined
      ? {}
      : {
          signedRenewalInfo: signJws(chain, {
            autoRenewStatus: notification.autoRenewStatus,
            originalTransactionId: notification.transaction.originalTransactionId,
            autoRenewProductId: notification.transaction.productId,
            signedDate: notification.signedDate,
          }),
        }),
  };
  const payload = {
    notificationType: notification.notificationType,
    ...(notification.subtype ? { subtype: notification.subtype } : {}),
    notificationUUID,
    data,
    version: '2.0',
    signedDate: notification.signedDate,
  };
  return { signedPayload: signJws(chain, payload), notificationUUID };
}
