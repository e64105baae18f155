import type { AddressInfo } from 'node:net';
import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { AppError, TokenIssuer, TokenVerifier } from '@spinroom/platform/core';
import { testInfra } from '@spinroom/platform/testing';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { errorHandler } from '../src/http/errors.js';
import { route, type HeaderAuth } from '../src/http/route.js';

// route() alone: a path is authenticated unless it says otherwise.
describe('route()', () => {
  let baseUrl: string;
  let close: () => void;
  let token: string;
  let document: ReturnType<OpenApiGeneratorV31['generateDocument']>;
  const userUuid = '0b9e2a35-3c4d-4e5f-8a9b-0c1d2e3f4a5b';

  beforeAll(async () => {
    const issuer = await TokenIssuer.fromPem(testInfra().signingKeyPem, { issuer: 'spinroom', ttlSeconds: 60 });
    const verifier = await TokenVerifier.fromPem(issuer.publicKeyPem, { issuer: 'spinroom' });
    token = await issuer.sign({ sub: userUuid, role: 'user', capabilities: [] });
    const router = express.Router();
    const registry = new OpenAPIRegistry();
    const deps = { router, registry, verifier: () => verifier };
    const Who = z.object({ who: z.string() });
    route(deps, {
      method: 'get',
      path: '/default',
      summary: 'no auth said',
      tags: ['t'],
      response: Who,
      handler: async ({ caller }) => ({ who: caller.userUuid }),
    });
    route(deps, {
      method: 'get',
      path: '/public',
      summary: 'public',
      tags: ['t'],
      auth: 'public',
      response: Who,
      handler: async ({ caller }) => ({ who: caller ?? 'anyone' }),
    });
    route(deps, {
      method: 'get',
      path: '/optional',
      summary: 'optional',
      tags: ['t'],
      auth: 'optional',
      response: Who,
      handler: async ({ caller }) => ({ who: caller?.userUuid ?? 'a visitor' }),
    });
    const keyed: HeaderAuth<string> = {
      headers: z.object({ key: z.string() }),
      verify: (req) => {
        if (req.headers.key !== 'open sesame') throw new AppError(401, 'no key');
        return 'keyholder';
      },
    };
    route(deps, {
      method: 'get',
      path: '/keyed',
      summary: 'own headers',
      tags: ['t'],
      auth: keyed,
      response: Who,
      errorShape: { schema: z.object({ oops: z.string() }), statuses: [401, 418] },
      handler: async ({ credentials }) => ({ who: credentials }),
    });
    document = new OpenApiGeneratorV31(registry.definitions).generateDocument({ openapi: '3.1.0', info: { title: 't', version: '1' } });
    const app = express();
    app.use(router);
    app.use(errorHandler);
    const server = await new Promise<ReturnType<typeof app.listen>>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => server.close();
  });
  afterAll(() => close());

  it('needs a bearer token on a path that does not say public', async () => {
    const refused = await fetch(`${baseUrl}/default`);
    expect(refused.status).toBe(401);
    const res = await fetch(`${baseUrl}/default`, { headers: { authorization: `Bearer ${token}` } });
    expect(await res.json()).toEqual({ who: userUuid });
    expect(document.paths?.['/default']?.get?.security).toEqual([{ bearerAuth: [] }]);
    expect(Object.keys(document.paths?.['/default']?.get?.responses ?? {})).toContain('401');
  });

  it('lets anyone call a public path', async () => {
    expect(await (await fetch(`${baseUrl}/public`)).json()).toEqual({ who: 'anyone' });
    expect(document.paths?.['/public']?.get?.security).toEqual([]);
  });

  it('reads the caller of an optional path when a token is sent, refuses a bad one, and lets visitors in', async () => {
    expect(await (await fetch(`${baseUrl}/optional`)).json()).toEqual({ who: 'a visitor' });
    expect(await (await fetch(`${baseUrl}/optional`, { headers: { authorization: `Bearer ${token}` } })).json()).toEqual({ who: userUuid });
    expect((await fetch(`${baseUrl}/optional`, { headers: { authorization: 'Bearer nonsense' } })).status).toBe(401);
    expect(document.paths?.['/optional']?.get?.security).toEqual([{}, { bearerAuth: [] }]);
  });

  it('reads and documents the headers of a path that authenticates by its own, with its error shape', async () => {
    expect((await fetch(`${baseUrl}/keyed`)).status).toBe(401);
    expect(await (await fetch(`${baseUrl}/keyed`, { headers: { key: 'open sesame' } })).json()).toEqual({ who: 'keyholder' });
    const operation = document.paths?.['/keyed']?.get;
    expect(operation?.security).toBeUndefined();
    expect(operation?.parameters).toEqual([expect.objectContaining({ in: 'header', name: 'key', required: true })]);
    expect(Object.keys(operation?.responses ?? {})).toEqual(['200', '401', '418']);
  });
});
