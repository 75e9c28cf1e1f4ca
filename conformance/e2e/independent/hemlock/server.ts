// startHemlock(): two loopback listeners (main and alternate base address) over one shared state, the
// authorization server's token endpoint on the main origin, and the tenants and client of the sandbox.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { handleMetadata, handleToken, METADATA_PATH, TOKEN_PATH } from './auth.ts';
import { closeStreams } from './events.ts';
import { handleApi } from './pipeline.ts';
import { createState, type HemlockOptions, type State } from './state.ts';

export type { HemlockOptions };

export interface HemlockDeployment {
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

function listen(server: Server): Promise<string> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
  });
}

function handler(state: State, tokenOrigin: () => string) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const done = (p: Promise<void> | void): void => {
      Promise.resolve(p).catch((e: unknown) => {
        console.error('[hemlock] unhandled', e);
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
        res.end();
      });
    };
    const origin = `http://${req.headers.host ?? '127.0.0.1'}`;
    if (url.pathname === TOKEN_PATH) done(handleToken(req, res, state));
    else if (url.pathname === METADATA_PATH) handleMetadata(res, tokenOrigin());
    else done(handleApi(req, res, state, new URL(url.pathname + url.search, origin), `${tokenOrigin()}${TOKEN_PATH}`));
  };
}

export async function startHemlock(options: HemlockOptions = {}): Promise<HemlockDeployment> {
  const clientId = `hmk_client_${randomBytes(6).toString('hex')}`;
  const clientSecret = `hmk_secret_${randomBytes(24).toString('base64url')}`;
  const state = createState(options, clientId, clientSecret);
  let baseUrl = '';
  const main = createServer(handler(state, () => baseUrl));
  const alt = createServer(handler(state, () => baseUrl));
  for (const s of [main, alt]) {
    s.keepAliveTimeout = 5_000;
    s.headersTimeout = 10_000;
  }
  baseUrl = await listen(main);
  const altBaseUrl = await listen(alt);
  return {
    baseUrl,
    altBaseUrl,
    tenant: 'hemlock-alpha',
    otherTenant: 'hemlock-beta',
    foreignTenant: 'hemlock-gamma',
    clientId,
    clientSecret,
    tokenUrl: `${baseUrl}${TOKEN_PATH}`,
    async close() {
      for (const t of state.timers) clearTimeout(t);
      state.timers.clear();
      closeStreams(state);
      await Promise.all(
        [main, alt].map(
          (s) =>
            new Promise<void>((resolve) => {
              s.close(() => resolve());
              s.closeAllConnections();
            }),
        ),
      );
    },
  };
}
