import type { Environment } from './contract/environment.ts';
import type { FixtureSet } from './contract/fixtures.ts';
import { createCore, type Core, type RequestLogEntry } from './core/create-core.ts';
import type { Surface } from './core/surface.ts';
import { createMswHandlers } from './adapters/msw.ts';
import type { Clock } from './state/clock.ts';
import { loadFixtures } from './state/fixtures-loader.ts';
import { newId } from './state/ids.ts';
import { createSandboxState, type SandboxState } from './state/sandbox-state.ts';
import { applyViolation, findViolation } from './violations/index.ts';

export const DEFAULT_BASE_URL = 'https://api.sandbox.example';
export const DEFAULT_ALT_BASE_URL = 'https://api.sandbox-alt.example';

export interface SandboxOptions {
  /** A fixture set or the path of a JSON file (default: the built-in hospitality network). */
  fixtures?: FixtureSet | string;
  /** Base URLs the MSW handlers answer (the server answers wherever it listens). */
  baseUrl?: string;
  altBaseUrl?: string;
  /** Environment this simulated deployment is (tokens of others are refused). Default sandbox. */
  environment?: Environment;
  /** Lifetime of access tokens (default 900 s). */
  tokenTtlSeconds?: number;
  /** Admin token for the control plane (default: random per sandbox). */
  adminToken?: string;
  /** Accept credentials from browsers (Origin + Authorization); default false. */
  allowBrowserCredentials?: boolean;
  clock?: Clock;
  onResponse?: (entry: RequestLogEntry) => void;
  onError?: (err: unknown, requestId: string) => void;
  /** Break one rule of the interface on purpose (the conformance kit's self-test): a name from VIOLATIONS. */
  violation?: string;
}

export interface Sandbox {
  core: Core;
  /** The core behind the alternate base URL (the same one unless a violation affects only that address). */
  altCore: Core;
  state: SandboxState;
  baseUrl: string;
  altBaseUrl: string;
  adminToken: string;
  /** MSW request handlers for both base URLs: `setupServer(...sandbox.handlers)`. */
  handlers: ReturnType<typeof createMswHandlers>;
  ready: Promise<void>;
  /**
   * Mints a bearer token for a declared client (default: the fixtures' default client).
   * @example const { token, tenant } = sandbox.issueToken();
   */
  issueToken(clientId?: string, ttlSeconds?: number): { token: string; tenant: string; clientId: string; expiresAt: string };
}

/**
 * Creates an in-memory simulator: use its MSW handlers in tests, or serve it over HTTP (`serve`).
 * @example
 * const sandbox = createSandbox();
 * const server = setupServer(...sandbox.handlers); server.listen();
 */
export function createSandbox(options: SandboxOptions = {}): Sandbox {
  const fixtures = typeof options.fixtures === 'object' ? loadFixtures(options.fixtures) : loadFixtures(options.fixtures);
  const baseUrl = (options.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
  const altBaseUrl = (options.altBaseUrl ?? DEFAULT_ALT_BASE_URL).replace(/\/+$/, '');
  const state = createSandboxState({
    fixtures,
    environment: options.environment ?? 'sandbox',
    tokenTtlSeconds: options.tokenTtlSeconds ?? 900,
    ...(options.clock ? { clock: options.clock } : {}),
  });
  const adminToken = options.adminToken ?? newId('ncs_admin', 24);
  // Surfaces outside /api/public/v1, each with its own paths and error format.
  const surfaces: Surface[] = [];
  const violation = options.violation ? findViolation(options.violation) : undefined;
  const core = createCore({
    state,
    surfaces,
    servers: [baseUrl, altBaseUrl],
    allowBrowserCredentials: options.allowBrowserCredentials ?? false,
    ...(options.onResponse ? { onResponse: options.onResponse } : {}),
    ...(options.onError ? { onError: options.onError } : {}),
  });
  const mainCore = violation && violation.where !== 'alt' ? applyViolation(core, violation.name) : core;
  const altCore = violation ? applyViolation(core, violation.name) : core;
  return {
    core: mainCore,
    altCore,
    state,
    baseUrl,
    altBaseUrl,
    adminToken,
    handlers: [...createMswHandlers(mainCore, [baseUrl]), ...createMswHandlers(altCore, [altBaseUrl])],
    ready: core.ready,
    issueToken(clientId = fixtures.defaultClient, ttlSeconds) {
      const client = state.clients.get(clientId);
      if (!client) throw new Error(`no client ${clientId} in the fixtures`);
      const { token, record } = state.tokens.issue({
        clientId, tenants: client.tenants, scopes: client.scopes, environment: client.environment,
        ...(ttlSeconds ? { ttlSeconds } : {}),
      });
      return { token, tenant: client.tenants[0]!, clientId, expiresAt: new Date(record.expiresAt).toISOString() };
    },
  };
}
