// bamboo: an independent deployment of the Network Connections Service interface, written from
// interface.md alone in the style of a Rust axum + tower service behind Ory Hydra. startBamboo() opens
// two loopback listeners (main and alternate base URL) over one state, plus Hydra on its own port.
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startHydra } from './oauth.ts';
import { handle } from './pipeline.ts';
import { ROUTES } from './routes.ts';
import { type BambooOptions, DEFAULTS, State } from './state.ts';

export interface BambooHandle {
  baseUrl: string;
  altBaseUrl: string;
  tenant: string;
  otherTenant: string;
  foreignTenant: string;
  clientId: string;
  clientSecret: string;
  tokenUrl: string;
  state: State;
  close(): Promise<void>;
}

async function listen(state: State): Promise<{ server: Server; base: string }> {
  let base = '';
  const server = createServer((req, res) => {
    void handle(state, ROUTES, req, res, base);
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { server, base };
}

/** Starts bamboo; options override the defaults (state.ts), e.g. a short rate-limit window for tests. */
export async function startBamboo(options: Partial<BambooOptions> = {}): Promise<BambooHandle> {
  const state = new State({ ...DEFAULTS, ...options });
  const clientId = 'bamboo-ci';
  const clientSecret = `bamboo_cs_${randomBytes(24).toString('base64url')}`;
  const tenant = 'tnt_bamboo_harbour';
  const otherTenant = 'tnt_bamboo_orchard';
  const foreignTenant = 'tnt_bamboo_quarry';
  for (const t of [tenant, otherTenant, foreignTenant]) state.tenants.add(t);
  // The foreign tenant exists but is not released for this access: 403 forbidden.
  state.clients.set(clientId, { secret: clientSecret, tenants: [tenant, otherTenant] });
  const hydra = await startHydra(state);
  state.tokenUrl = `${hydra.origin}/oauth2/token`;
  const main = await listen(state);
  const alt = await listen(state);
  const servers = [hydra.server, main.server, alt.server];
  return {
    baseUrl: main.base,
    altBaseUrl: alt.base,
    tenant,
    otherTenant,
    foreignTenant,
    clientId,
    clientSecret,
    tokenUrl: state.tokenUrl,
    state,
    async close() {
      for (const t of state.timers) clearTimeout(t);
      state.timers.clear();
      await Promise.all(
        servers.map(
          (s) =>
            new Promise<void>((r) => {
              s.close(() => r());
              s.closeAllConnections();
            }),
        ),
      );
    },
  };
}
