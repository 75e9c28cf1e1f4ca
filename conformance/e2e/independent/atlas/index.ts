// startAtlas(): an independent deployment of the interface on two loopback listeners sharing one state.
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ALL_SCOPES, type AuthEndpoints, createAuthServer, METADATA_PATH, REALM_PATH, TOKEN_PATH } from './oauth.ts';
import { createPipeline } from './server.ts';

export const ATLAS_TENANT = 'nordhafen-logistics';
export const ATLAS_OTHER_TENANT = 'alpenfracht';
/** Exists, but the conformance client is not released for it. */
export const ATLAS_FOREIGN_TENANT = 'ostsee-cargo';
export const ATLAS_CLIENT_ID = 'atlas-conformance-ci';

export type Atlas = {
  baseUrl: string;
  altBaseUrl: string;
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  tenant: string;
  otherTenant?: string;
  foreignTenant: string;
  close(): Promise<void>;
};

function listen(server: Server): Promise<string> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
  });
}

export type AtlasOptions = {
  /** Shorter access tokens (default 300 s), to see a client renew them. */
  tokenLifetimeSeconds?: number;
  /** Poll interval of the event outbox (default 0: at once); events reach the stream and webhooks this late. */
  eventRelayMs?: number;
  /** How long a new connection stays PROVISIONING before it turns ACTIVE (default 1500 ms). */
  activationDelayMs?: number;
};

export async function startAtlas(options: AtlasOptions = {}): Promise<Atlas> {
  // No fixed secret in source: generated per start, handed to the caller once.
  const clientSecret = randomBytes(24).toString('base64url');
  const auth = createAuthServer(
    [
      {
        clientId: ATLAS_CLIENT_ID,
        secret: clientSecret,
        tenants: [ATLAS_TENANT, ATLAS_OTHER_TENANT],
        scopes: ALL_SCOPES,
        purpose: 'conformance testing of the atlas sandbox',
        owner: 'platform-integration@atlas.example',
        expiresAt: new Date(Date.now() + 90 * 86400000).toISOString().replace('Z', '+00:00'),
      },
    ],
    options.tokenLifetimeSeconds,
  );
  let endpoints: AuthEndpoints = { issuer: '', tokenEndpoint: '', metadata: '' };
  const pipeline = createPipeline(auth, () => endpoints, {
    eventRelayMs: options.eventRelayMs,
    activationDelayMs: options.activationDelayMs,
  });
  pipeline.connections.seedSuspended(ATLAS_TENANT);
  const handler = (req: Parameters<typeof pipeline.handle>[0], res: Parameters<typeof pipeline.handle>[1]): void => {
    void pipeline.handle(req, res);
  };
  const main = createServer(handler);
  const alt = createServer(handler);
  // The authorization server is its own origin, as an enterprise identity provider would be.
  let authOrigin = '';
  const idp = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://idp.invalid').pathname;
    void auth.handle(req, res, path, authOrigin).then((handled) => {
      if (handled) return;
      res.writeHead(404, { 'Content-Type': 'application/json' });
      res.end('{"error":"not_found"}');
    });
  });
  authOrigin = await listen(idp);
  endpoints = {
    issuer: `${authOrigin}${REALM_PATH}`,
    tokenEndpoint: `${authOrigin}${TOKEN_PATH}`,
    metadata: `${authOrigin}${METADATA_PATH}`,
  };
  const baseUrl = await listen(main);
  const altBaseUrl = await listen(alt);
  return {
    baseUrl,
    altBaseUrl,
    tokenUrl: endpoints.tokenEndpoint,
    clientId: ATLAS_CLIENT_ID,
    clientSecret,
    tenant: ATLAS_TENANT,
    otherTenant: ATLAS_OTHER_TENANT,
    foreignTenant: ATLAS_FOREIGN_TENANT,
    async close() {
      pipeline.close();
      for (const s of [main, alt, idp]) s.closeAllConnections();
      await Promise.all([main, alt, idp].map((s) => new Promise<void>((r) => s.close(() => r()))));
    },
  };
}
