import { createHmac, generateKeyPairSync } from 'node:crypto';
import { SignJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateSigningKeyPem, TokenIssuer, TokenVerifier } from '../src/auth.js';
import { testInfra } from '../src/testing/index.js';

const b64url = (value: object | string) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

describe('RS256 access tokens', () => {
  let issuer: TokenIssuer;
  let verifier: TokenVerifier;

  beforeAll(async () => {
    issuer = await TokenIssuer.fromPem(testInfra().signingKeyPem, { issuer: 'spinroom', ttlSeconds: 60 });
    verifier = await TokenVerifier.fromPem(issuer.publicKeyPem, { issuer: 'spinroom' });
  });

  it('round-trips the claims of the original', async () => {
    const token = await issuer.sign({ sub: '6f1c7a4e-7d3b-4a43-9d39-2f5c6a1b2c3d', role: 'bot', capabilities: ['uploadMusic'] });
    const [header, payload] = token
      .split('.')
      .slice(0, 2)
      .map((part) => JSON.parse(Buffer.from(part, 'base64url').toString()));
    expect(header).toMatchObject({ alg: 'RS256', kid: issuer.keyId });
    expect(payload).toMatchObject({
      sub: '6f1c7a4e-7d3b-4a43-9d39-2f5c6a1b2c3d',
      role: 'bot',
      capabilities: ['uploadMusic'],
      iss: 'spinroom',
    });
    expect(payload.exp - payload.iat).toBe(60);
    const caller = await verifier.verifyHeader(`Bearer ${token}`);
    expect(caller).toMatchObject({
      userUuid: '6f1c7a4e-7d3b-4a43-9d39-2f5c6a1b2c3d',
      role: 'bot',
      kind: 'bot',
      capabilities: ['uploadMusic'],
    });
  });

  it('signs with a 3072-bit key', () => {
    expect(generateSigningKeyPem()).toContain('BEGIN PRIVATE KEY');
  });

  it('refuses a token signed by another key', async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const forged = await new SignJWT({ role: 'admin', capabilities: [] })
      .setProtectedHeader({ alg: 'RS256', kid: issuer.keyId })
      .setSubject('6f1c7a4e-7d3b-4a43-9d39-2f5c6a1b2c3d')
      .setIssuer('spinroom')
      .setExpirationTime('1h')
      .sign(privateKey);
    await expect(verifier.verify(forged)).rejects.toMatchObject({ status: 401 });
  });

  it('refuses alg none and HS256 made with the public key as secret', async () => {
    const claims = {
      sub: '6f1c7a4e-7d3b-4a43-9d39-2f5c6a1b2c3d',
      role: 'admin',
      capabilities: [],
      iss: 'spinroom',
      exp: Math.floor(Date.now() / 1000) + 600,
    };
    const none = `${b64url({ alg: 'none', typ: 'JWT' })}.${b64url(claims)}.`;
    await expect(verifier.verify(none)).rejects.toMatchObject({ status: 401 });
    const unsigned = `${b64url({ alg: 'HS256', typ: 'JWT' })}.${b64url(claims)}`;
    const hmac = createHmac('sha256', issuer.publicKeyPem).update(unsigned).digest('base64url');
    await expect(verifier.verify(`${unsigned}.${hmac}`)).rejects.toMatchObject({ status: 401 });
  });

  it('keeps chat tokens and access tokens apart (claim `use`)', async () => {
    const chatVerifier = await TokenVerifier.fromPem(issuer.publicKeyPem, { issuer: 'spinroom', use: 'chat' });
    const sub = '6f1c7a4e-7d3b-4a43-9d39-2f5c6a1b2c3d';
    const chatToken = await issuer.sign({ sub, role: 'user', capabilities: [], use: 'chat' });
    const accessToken = await issuer.sign({ sub, role: 'user', capabilities: [] });
    expect(JSON.parse(Buffer.from(chatToken.split('.')[1]!, 'base64url').toString())).toMatchObject({ use: 'chat' });
    expect((await chatVerifier.verify(chatToken)).userUuid).toBe(sub);
    await expect(verifier.verify(chatToken)).rejects.toMatchObject({ status: 401 });
    await expect(chatVerifier.verify(accessToken)).rejects.toMatchObject({ status: 401 });
    expect((await verifier.verify(accessToken)).userUuid).toBe(sub);
  });

  it('remembers a verified token only until it expires', async () => {
    const shortLived = await TokenIssuer.fromPem(testInfra().signingKeyPem, { issuer: 'spinroom', ttlSeconds: 1 });
    const token = await shortLived.sign({ sub: '6f1c7a4e-7d3b-4a43-9d39-2f5c6a1b2c3d', role: 'user', capabilities: [] });
    expect((await verifier.verify(token)).userUuid).toBe('6f1c7a4e-7d3b-4a43-9d39-2f5c6a1b2c3d');
    expect((await verifier.verify(token)).userUuid).toBe('6f1c7a4e-7d3b-4a43-9d39-2f5c6a1b2c3d'); // from the cache
    await new Promise((r) => setTimeout(r, 2_100));
    await expect(verifier.verify(token)).rejects.toMatchObject({ status: 401 });
  });

  it('refuses expired tokens, other issuers and malformed headers', async () => {
    const expired = await TokenIssuer.fromPem(testInfra().signingKeyPem, { issuer: 'spinroom', ttlSeconds: -10 });
    await expect(verifier.verify(await expired.sign({ sub: 'x', role: 'user', capabilities: [] }))).rejects.toMatchObject({ status: 401 });
    const other = await TokenIssuer.fromPem(testInfra().signingKeyPem, { issuer: 'elsewhere', ttlSeconds: 60 });
    await expect(verifier.verify(await other.sign({ sub: 'x', role: 'user', capabilities: [] }))).rejects.toMatchObject({ status: 401 });
    await expect(verifier.verifyHeader(undefined)).rejects.toMatchObject({ status: 401 });
    await expect(verifier.verifyHeader('Basic abc')).rejects.toMatchObject({ status: 401 });
  });
});
