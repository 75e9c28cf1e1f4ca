// startGorse(): two loopback listeners (main and alternate base URL) over one state, plus the OAuth
// token endpoint on its own path (/oauth/v2/token, client_secret_post only, opaque 3600 s tokens).

import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readBody, writeChunked } from './http-kit.ts';
import { handle } from './routes.ts';
import type { GorseOptions } from './state.ts';
import { GorseState } from './state.ts';
import { WebhookHub } from './webhooks.ts';

export type { GorseOptions };

const TOKEN_PATH = '/oauth/v2/token';

function oauthError(res: ServerResponse, status: number, error: string, description: string) {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'cache-control': 'no-store' };
  if (status === 401) headers['www-authenticate'] = 'Bearer realm="gorse"';
  writeChunked(res, status, headers, JSON.stringify({ error, error_description: description }));
}

async function token(req: IncomingMessage, res: ServerResponse, state: GorseState) {
  if (req.method !== 'POST') return oauthError(res, 405, 'invalid_request', 'POST only');
  // client_secret_basic is not offered: a Basic header is refused so clients fall back to the body
  if (/^Basic /i.test(req.headers.authorization ?? ''))
    return oauthError(res, 401, 'invalid_client', 'use client_secret_post');
  const form = new URLSearchParams(await readBody(req));
  if (form.get('grant_type') !== 'client_credentials')
    return oauthError(res, 400, 'unsupported_grant_type', 'client_credentials only');
  if (form.get('client_id') !== state.clientId || form.get('client_secret') !== state.clientSecret) {
    return oauthError(res, 401, 'invalid_client', 'unknown client or wrong secret');
  }
  const t = state.issueToken();
  writeChunked(
    res,
    200,
    { 'content-type': 'application/json', 'cache-control': 'no-store', pragma: 'no-cache' },
    JSON.stringify({
      access_token: t.token,
      token_type: 'Bearer',
      expires_in: t.expiresIn,
      scope: form.get('scope') ?? 'network',
    }),
  );
}

function listen(server: Server): Promise<string> {
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
  });
}

export interface GorseHandle {
  baseUrl: string;
  altBaseUrl: string;
  tenant: string;
  otherTenant: string;
  foreignTenant: string;
  clientId: string;
  clientSecret: string;
  tokenUrl: string;
  close(): Promise<void>;
}

export async function startGorse(options: GorseOptions = {}): Promise<GorseHandle> {
  const state = new GorseState(options);
  const hub = new WebhookHub(state);
  const make = () => {
    const server = createServer((req, res) => {
      const base = `http://${req.headers.host ?? '127.0.0.1'}`;
      const path = (req.url ?? '/').split('?')[0];
      const work = path === TOKEN_PATH ? token(req, res, state) : handle(req, res, state, hub, base);
      work.catch(() => {
        if (!res.headersSent) writeChunked(res, 500, { 'content-type': 'application/json' }, '{"ok":false}');
        else res.end();
      });
    });
    server.keepAliveTimeout = 5000;
    return server;
  };
  const main = make();
  const alt = make();
  const baseUrl = await listen(main);
  const altBaseUrl = await listen(alt);
  return {
    baseUrl,
    altBaseUrl,
    tenant: 'gorse-alpha',
    otherTenant: 'gorse-beta',
    foreignTenant: 'gorse-gamma',
    clientId: state.clientId,
    clientSecret: state.clientSecret,
    tokenUrl: `${baseUrl}${TOKEN_PATH}`,
    async close() {
      for (const t of state.timers) clearTimeout(t);
      for (const s of [main, alt]) {
        s.closeAllConnections();
        await new Promise<void>((r) => s.close(() => r()));
      }
    },
  };
}
