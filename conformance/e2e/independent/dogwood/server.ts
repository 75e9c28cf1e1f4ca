// startDogwood(): two loopback listeners (main and alternate base address) over one shared state.
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Auth, TOKEN_PATH } from './auth.ts';
import { Idempotency } from './idempotency.ts';
import { RateLimiter } from './rate-limit.ts';
import { dispatch } from './routes.ts';
import type { App } from './state.ts';
import { createState, type DogwoodOptions } from './state.ts';
import { startHeartbeat } from './stream.ts';

export type { DogwoodOptions } from './state.ts';

export interface DogwoodDeployment {
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

export async function startDogwood(options: DogwoodOptions = {}): Promise<DogwoodDeployment> {
  const state = createState(options);
  const clientId = `dw_${randomBytes(6).toString('hex')}`;
  const clientSecret = randomBytes(24).toString('base64url');
  const auth = new Auth(state, [{ id: clientId, secret: clientSecret, tenants: ['acme-roastery', 'acme-bakery'] }]);
  const app: App = { state, auth, limiter: new RateLimiter(state), idem: new Idempotency() };
  app.idem.replayRefusals = state.opts.replayRefusals;
  startHeartbeat(state);
  const servers = [0, 1].map(() =>
    createServer({ keepAliveTimeout: 5000 }, (req, res) => {
      dispatch(app, req, res).catch(() => res.destroy());
    }),
  );
  const [main, alt] = servers;
  if (!main || !alt) throw new Error('no server');
  const baseUrl = await listen(main);
  const altBaseUrl = await listen(alt);
  return {
    baseUrl,
    altBaseUrl,
    tenant: 'acme-roastery',
    otherTenant: 'acme-bakery',
    foreignTenant: 'globex-diner',
    clientId,
    clientSecret,
    tokenUrl: `${baseUrl}${TOKEN_PATH}`,
    async close() {
      state.closed = true;
      for (const t of state.timers) clearTimeout(t);
      state.timers.clear();
      await Promise.all(
        servers.map(
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
