// Starts an ebony deployment: two loopback listeners (main and second base address) over one shared state,
// one OAuth client released for two tenants, and a third tenant that exists but is not released (403).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { handler } from './app.ts';
import { TOKEN_PATH } from './auth.ts';
import { Ebony, type EbonyOptions } from './state.ts';

export type { EbonyOptions } from './state.ts';

export interface EbonyHandle {
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
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve(`http://127.0.0.1:${port}`);
    });
  });
}

function shut(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/**
 * An ebony deployment on two ephemeral loopback ports.
 * @example const ebony = await startEbony({ rateLimit: 200, windowMs: 5000 }); … await ebony.close();
 */
export async function startEbony(options: EbonyOptions = {}): Promise<EbonyHandle> {
  const ebony = new Ebony(options);
  const tenant = 'TN000101';
  const otherTenant = 'TN000102';
  const foreignTenant = 'TN000199';
  for (const t of [tenant, otherTenant, foreignTenant]) ebony.authority.tenants.add(t);
  const client = ebony.authority.addClient([tenant, otherTenant]);
  // The foreign tenant belongs to another partner's access.
  ebony.authority.addClient([foreignTenant]);
  const main = createServer(handler(ebony));
  const alt = createServer(handler(ebony));
  for (const s of [main, alt]) {
    s.keepAliveTimeout = 5000;
    s.requestTimeout = 0;
  }
  ebony.baseUrl = await listen(main);
  ebony.altBaseUrl = await listen(alt);
  return {
    baseUrl: ebony.baseUrl,
    altBaseUrl: ebony.altBaseUrl,
    tenant,
    otherTenant,
    foreignTenant,
    clientId: client.clientId,
    clientSecret: client.secret,
    tokenUrl: `${ebony.baseUrl}${TOKEN_PATH}`,
    async close() {
      ebony.close();
      await Promise.all([shut(main), shut(alt)]);
    },
  };
}
