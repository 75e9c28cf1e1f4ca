// The server every round-7 HTTP attack file runs against (one per file: vitest gives each file its own
// module state), a loopback receiver that answers 200, and the calls the files share. Loopback only.
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll } from 'vitest';
import { type RunningServer, serve } from '../../app/serve.ts';
import { call, MOBILE, token } from './attacks-round7-helpers.ts';

let current: RunningServer | undefined;
const server = () => {
  if (!current) throw new Error('the round-7 server is not started (useServer in the file)');
  return current;
};

/** Starts `serve()` and a receiver before the file's tests, closes both after; hands both over. */
export function useServer(ready: (s: RunningServer, hookUrl: string) => void) {
  let receiver: Server | undefined;
  beforeAll(async () => {
    current = await serve({ port: 0, rateLimit: false, runs: { max: 40 } });
    const r = createServer((_, res) => res.end('ok'));
    receiver = r;
    await new Promise<void>((done) => r.listen(0, '127.0.0.1', done));
    ready(current, `http://127.0.0.1:${(r.address() as { port: number }).port}/hook`);
  });
  afterAll(async () => {
    receiver?.close();
    await current?.close();
  });
}

/** A control-plane call with the admin token. */
export const admin = (path: string, method = 'GET', body?: unknown) =>
  call(server().baseUrl, method, path, server().sandbox.adminToken, { body });

/** An interface call with the start-up token and tenant. */
export const api = (method: string, path: string, opts: { body?: unknown; headers?: Record<string, string> } = {}) =>
  call(server().baseUrl, method, path, server().token, { tenant: server().tenant, ...opts });

/** The public client's code exchange; `verifier` undefined leaves code_verifier out. */
export const exchange = (code: string, verifier: string | undefined, extra: Record<string, string> = {}) =>
  token(server().baseUrl, {
    grant_type: 'authorization_code',
    client_id: MOBILE.id,
    code,
    redirect_uri: MOBILE.redirect,
    ...(verifier === undefined ? {} : { code_verifier: verifier }),
    ...extra,
  });
