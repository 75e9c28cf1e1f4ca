// Entry point of the birch deployment: two listeners (main and alternative base URL) on one state.
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type BirchVariant, createState, DEFAULT_VARIANT } from './app-state.ts';
import { TOKEN_PATH } from './auth.ts';
import { createHandler } from './server.ts';

export type BirchOptions = {
  rateLimit?: { limit: number; windowSeconds: number };
  statusEveryMs?: number;
  variant?: Partial<BirchVariant>;
};
export type Birch = {
  baseUrl: string;
  altBaseUrl: string;
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  tenant: string;
  otherTenant?: string;
  close(): Promise<void>;
};

function listen(server: Server): Promise<string> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
  });
}

export async function startBirch(opts: BirchOptions = {}): Promise<Birch> {
  const state = createState(opts.rateLimit ?? { limit: 600, windowSeconds: 60 }, {
    ...DEFAULT_VARIANT,
    ...opts.variant,
  });
  const clientId = 'birch-partner-1';
  const clientSecret = `bcs_${randomBytes(20).toString('hex')}`;
  state.auth.addClient({ clientId, secret: clientSecret, tenants: ['acme-bistro', 'harbor-kitchen'] });
  const handler = createHandler(state);
  const main = createServer(handler);
  const alt = createServer(handler);
  const baseUrl = await listen(main);
  const altBaseUrl = await listen(alt);
  // the stream is a status stream: besides state changes it reports the service status periodically
  const status = setInterval(
    () => state.bus.publish('service.status', null, { status: 'operational' }),
    opts.statusEveryMs ?? 5000,
  );
  return {
    baseUrl,
    altBaseUrl,
    tokenUrl: `${baseUrl}${TOKEN_PATH}`,
    clientId,
    clientSecret,
    tenant: 'acme-bistro',
    otherTenant: 'harbor-kitchen',
    async close() {
      clearInterval(status);
      state.connections.close();
      state.webhooks.close();
      for (const closeStream of [...state.openStreams]) closeStream();
      await Promise.all(
        [main, alt].map(
          (srv) =>
            new Promise<void>((resolve) => {
              srv.closeAllConnections();
              srv.close(() => resolve());
            }),
        ),
      );
    },
  };
}
