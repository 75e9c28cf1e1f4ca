import { http, passthrough } from 'msw';
import { Agent } from 'undici';
import { setupServer } from 'msw/node';
import { serve } from '../../simulator/app/serve.ts';
import { createSandbox, type Sandbox, type SandboxOptions } from '../../simulator/app/sandbox.ts';
import type { FetchLike } from '../client/http-client.ts';
import type { ConformanceOptions } from '../runner/options.ts';
import { kitFetch } from '../test-support/kit-fetch.ts';

/** Looked up per call: MSW replaces globalThis.fetch when a server starts listening. */
export const globalFetch: FetchLike = (url, init) => globalThis.fetch(url, init);

/** Retries without waiting (violations answer 500 on purpose; the schedule itself is unit-tested). */
export const noWait = { sleep: async () => undefined };

/** A client of the fixtures allowed to act for two tenants: the tenant-isolation checks need a second one. */
export const TWO_TENANT_CLIENT = 'network-integrator';

/** The kit's options for a sandbox: a two-tenant token, the admin token of the control plane. */
function kitAccess(sandbox: Sandbox): ConformanceOptions {
  const { token, tenant } = sandbox.issueToken(TWO_TENANT_CLIENT);
  const otherTenant = sandbox.state.fixtures.clients
    .find((c) => c.id === TWO_TENANT_CLIENT)!
    .tenants.find((t) => t !== tenant)!;
  // A tenant of the fixtures the client is not released for: 403 forbidden.
  const foreignTenant = 'lakeside-cafes';
  return { token, tenant, otherTenant, foreignTenant, adminToken: sandbox.adminToken };
}

/** What the simulator chose where the interface is silent, as a deployment profile declares it. */
export const SIMULATOR_PROFILE = {
  capabilityDeniedCase: 'unoffered-capability',
  webhookTestEvent: 'connection.created',
  webhookSignatureHeader: 'NCS-Signature',
  // Its messages come within milliseconds: a violation withholding one costs 3 s of waiting, not 10.
  streamMessageWaitMs: 3000,
} as const;

/**
 * The simulator on node:http with both base URLs, and the kit's options for it: undici's fetch (as
 * kitFetch sends it) over connections of this target only. Its close ends them first, then the server without the shutdown
 * grace (the kit's run is over, no request is on its way): otherwise the close waited for a spare
 * connection the kit's pool had opened and never used (node keeps one until the header timeout).
 */
export async function httpTarget(options: SandboxOptions = {}) {
  const running = await serve({ ...options, port: 0, altPort: 0, limits: { shutdownGraceMs: 0 } });
  const agent = new Agent();
  const kit: ConformanceOptions = {
    baseUrl: running.baseUrl,
    altBaseUrl: running.altBaseUrl!,
    ...kitAccess(running.sandbox),
    // The simulator's choices declared, so a violation of them fails instead of being skipped as a guess.
    deploymentProfile: SIMULATOR_PROFILE,
    // What undici's fetch sends and returns (kit-fetch.test.ts), at about a third of its CPU per call.
    fetch: kitFetch(agent),
  };
  const close = async () => {
    await agent.destroy();
    await running.close();
  };
  return { kit, sandbox: running.sandbox, close };
}

/** Webhook deliveries to the kit's receiver on 127.0.0.1 go over the network unchanged. */
const loopbackPassthrough = http.all(/^http:\/\/127\.0\.0\.1:\d+\//, () => passthrough());

/** One MSW server for a whole file; `use` points it at a fresh sandbox and returns the kit's options. */
export function mswTargets() {
  const server = setupServer();
  return {
    listen: () => server.listen({ onUnhandledFrame: 'error' }),
    close: () => server.close(),
    async use(options: SandboxOptions = {}): Promise<ConformanceOptions> {
      const sandbox = createSandbox(options);
      server.resetHandlers(...sandbox.handlers, loopbackPassthrough);
      await sandbox.ready;
      // The in-process simulator delivers webhooks over real loopback HTTP to the kit's receiver.
      return {
        baseUrl: sandbox.baseUrl,
        altBaseUrl: sandbox.altBaseUrl,
        ...kitAccess(sandbox),
        fetch: globalFetch,
        retry: noWait,
        deploymentProfile: { ...SIMULATOR_PROFILE, webhookReceiverUrl: 'loopback' },
      };
    },
  };
}
