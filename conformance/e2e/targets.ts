import { setupServer } from 'msw/node';
import { serve } from '../../simulator/adapters/node-server.ts';
import { createSandbox, type SandboxOptions } from '../../simulator/sandbox.ts';
import type { FetchLike } from '../client/http-client.ts';
import type { ConformanceOptions } from '../runner/options.ts';

/** Looked up per call: MSW replaces globalThis.fetch when a server starts listening. */
export const globalFetch: FetchLike = (url, init) => globalThis.fetch(url, init);

/** Retries without waiting (violations answer 500 on purpose; the schedule itself is unit-tested). */
export const noWait = { sleep: async () => undefined };

/** The simulator on node:http with both base URLs, and the kit's options for it (default undici fetch). */
export async function httpTarget(options: SandboxOptions = {}) {
  const running = await serve({ ...options, port: 0, altPort: 0 });
  const kit: ConformanceOptions = { baseUrl: running.baseUrl, altBaseUrl: running.altBaseUrl!, token: running.token, tenant: running.tenant };
  return { kit, close: () => running.close() };
}

/** One MSW server for a whole file; `use` points it at a fresh sandbox and returns the kit's options. */
export function mswTargets() {
  const server = setupServer();
  return {
    listen: () => server.listen({ onUnhandledFrame: 'error' }),
    close: () => server.close(),
    async use(options: SandboxOptions = {}): Promise<ConformanceOptions> {
      const sandbox = createSandbox(options);
      server.resetHandlers(...sandbox.handlers);
      await sandbox.ready;
      const { token, tenant } = sandbox.issueToken();
      return { baseUrl: sandbox.baseUrl, altBaseUrl: sandbox.altBaseUrl, token, tenant, fetch: globalFetch, retry: noWait };
    },
  };
}
