import type { Environment } from '../contract/environment.ts';
import type { FixtureSet } from '../contract/fixtures.ts';
import { createCore, type Core, type RequestLogEntry } from './create-core.ts';
import type { Mount } from '../core/mount.ts';
import { createControlOperations, type ControlOperations } from '../control/operations.ts';
import { createControlPlaneMount } from '../control/mount.ts';
import { createMswHandlers } from '../adapters/msw.ts';
import { createAuthServerMount } from '../auth-server/mount.ts';
import type { Clock } from '../lib/clock.ts';
import { loadFixtures } from './fixtures-loader.ts';
import { newId } from '../lib/ids.ts';
import { PersistenceError } from '../state/persistence/persistence-error.ts';
import type { Persistence } from '../state/persistence/persistence.ts';
import { openSqlitePersistence } from '../state/persistence/sqlite-persistence.ts';
import { createSandboxState, type SandboxState, type WebhookOptions } from './sandbox-state.ts';
import type { StreamLimits } from '../events/stream-limits.ts';
import { mswPassthroughFetch } from '../webhooks/passthrough-fetch.ts';
import type { RateLimitSettings } from '../state/rate-limit-store.ts';
import { createInspector, type Inspector, type InspectorOptions } from '../inspector/index.ts';
import { WEBHOOK_DEFAULTS } from '../contract/simulator-defaults.ts';
import { createClock } from '../lib/clock.ts';
import { replayClock, type SharedStore, shareSandbox, sharedStoresOf } from './shared-sandbox.ts';
import { type ClientReport, type ClientVerdicts, createClientVerdicts } from '../client-rules/index.ts';
import type { ReceiverCheckResult } from '../webhooks/receiver-check.ts';
import { must } from '../lib/invariant.ts';

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
  /** Delay before a new connection turns from pending to active (default 2000 ms; 0 = at once). */
  activationDelayMs?: number;
  /** Validity of idempotency keys (default 24 h) and the most records kept (default 200,000). */
  idempotency?: { ttlSeconds?: number; maxRecords?: number };
  /** Lifetime of access tokens (default 900 s). */
  tokenTtlSeconds?: number;
  /** Lifetime of each refresh token; every rotation issues a fresh one (default 86 400 s). */
  refreshTokenTtlSeconds?: number;
  /** Calls per window per access, tenant and environment (default 600 per 60 s); false switches it off. */
  rateLimit?: RateLimitSettings | false;
  /** Admin token for the control plane (default: random per sandbox). */
  adminToken?: string;
  /** Accept credentials from browsers (Origin + Authorization); default false. */
  allowBrowserCredentials?: boolean;
  clock?: Clock;
  /** Status stream: retention per feed (10,000), open-stream limits, retry hint and heartbeat. */
  stream?: {
    retention?: number;
    limits?: Partial<StreamLimits>;
    retryMs?: number;
    heartbeatMs?: number;
    maxLagMessages?: number;
  };
  /** Webhook deliveries: timeouts, retries, queue, signature header name, and the hosts receivers may use (default loopback). */
  webhooks?: WebhookOptions & { allowedHosts?: readonly string[] };
  /** Persist state in an embedded SQLite database in this folder (default: memory only). */
  dataDir?: string;
  /**
   * Share the state with other replicas through Redis (`openSharedStore(url)`; `ncs serve --store`).
   * Not together with `dataDir`: Redis is then where the state lasts.
   */
  shared?: SharedStore;
  onResponse?: (entry: RequestLogEntry) => void;
  onError?: (err: unknown, requestId: string) => void;
  /** Receives one line per step each request passes (`NCS_TRACE=1`, `ncs serve --trace` print them to stderr). */
  trace?: (line: string) => void;
  /** The inspector page and its request journal (default on, 500 calls); false leaves both out. */
  inspector?: InspectorOptions | false;
  /**
   * Wraps the core behind each base URL (the default core otherwise), e.g. the conformance kit's
   * deliberate violations. Applied from outside: the simulator knows nothing of what a wrapper does.
   */
  wrapCore?: (core: Core, base: 'main' | 'alt') => Core;
  /** Client verdicts: observe every client and judge it against the interface's client duties (default on). */
  clientVerdicts?: boolean;
}

export interface Sandbox {
  core: Core;
  /** The core behind the alternate base URL (the same one unless `wrapCore` is given). */
  altCore: Core;
  state: SandboxState;
  baseUrl: string;
  altBaseUrl: string;
  adminToken: string;
  /** MSW request handlers for both base URLs: `setupServer(...sandbox.handlers)`. */
  handlers: ReturnType<typeof createMswHandlers>;
  /** The control plane as functions (reset, connection states, clock, faults). */
  control: ControlOperations;
  ready: Promise<void>;
  /** The inspector (journal, login URL), unless switched off with `inspector: false`. */
  inspector?: Inspector;
  /**
   * Mints a bearer token for a declared client (default: the fixtures' default client).
   * @example const { token, tenant } = sandbox.issueToken();
   */
  issueToken(
    clientId?: string,
    ttlSeconds?: number,
  ): { token: string; tenant: string; clientId: string; expiresAt: string };
  /** Client verdicts (observation and rules), unless switched off with `clientVerdicts: false`. */
  verdicts?: ClientVerdicts;
  /**
   * The client verdicts in process: every client rule with status pass, fail or not-observed and its evidence.
   * @example expect(sandbox.clientReport().rules.filter((r) => r.status === 'fail')).toEqual([]);
   */
  clientReport(filter?: { client?: string; tenant?: string }): ClientReport;
  /**
   * Sends a registered receiver the scored sequence of deliveries and judges its answers.
   * @example const result = await sandbox.receiverCheck({ webhookId }); expect(result.pass).toBe(true);
   */
  receiverCheck(opts: { webhookId: string; tenant?: string; timeoutMs?: number }): Promise<ReceiverCheckResult>;
}

/** Builds the state; a stored record that does not load aborts naming the file and table, never with a raw TypeError. */
function loadState(persistence: Persistence | undefined, build: () => SandboxState): SandboxState {
  try {
    return build();
  } catch (err) {
    persistence?.close();
    if (!persistence || err instanceof PersistenceError) throw err;
    throw new PersistenceError(
      `${persistence.lastRead?.() ?? 'the data dir'}: a stored record does not load; the data dir is damaged. Restore it from a backup or remove it to start fresh.`,
      { cause: err },
    );
  }
}

/**
 * Creates an in-memory simulator: use its MSW handlers in tests, or serve it over HTTP (`serve`).
 * @example
 * const sandbox = createSandbox();
 * const server = setupServer(...sandbox.handlers); server.listen();
 */
export function createSandbox(options: SandboxOptions = {}): Sandbox {
  const fixtures =
    typeof options.fixtures === 'object' ? loadFixtures(options.fixtures) : loadFixtures(options.fixtures);
  const baseUrl = (options.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
  const altBaseUrl = (options.altBaseUrl ?? DEFAULT_ALT_BASE_URL).replace(/\/+$/, '');
  const { allowedHosts, ...webhookOptions } = { ...options.webhooks };
  // In a test process MSW intercepts every outgoing request, deliveries included: mark them to pass through.
  webhookOptions.fetch ??= mswPassthroughFetch;
  if (options.shared && options.dataDir) throw new Error('use --store or --data-dir, not both');
  const shared = options.shared;
  const replay = shared ? replayClock(options.clock ?? createClock()) : undefined;
  const clock = replay ?? options.clock;
  const persistence = options.dataDir ? openSqlitePersistence(options.dataDir) : undefined;
  const state = loadState(persistence, () =>
    createSandboxState({
      fixtures,
      environment: options.environment ?? 'sandbox',
      tokenTtlSeconds: options.tokenTtlSeconds ?? 900,
      activationDelayMs: options.activationDelayMs ?? 2000,
      idempotency: {
        ...(options.idempotency?.ttlSeconds !== undefined ? { ttlMs: options.idempotency.ttlSeconds * 1000 } : {}),
        ...(options.idempotency?.maxRecords !== undefined ? { maxRecords: options.idempotency.maxRecords } : {}),
      },
      ...(clock ? { clock } : {}),
      ...(shared && clock
        ? {
            shared: sharedStoresOf(
              shared,
              clock,
              options.idempotency?.ttlSeconds !== undefined ? options.idempotency.ttlSeconds * 1000 : undefined,
            ),
          }
        : {}),
      ...(persistence ? { persistence } : {}),
      ...(options.rateLimit !== undefined ? { rateLimit: options.rateLimit } : {}),
      ...(options.stream?.retention ? { streamRetention: options.stream.retention } : {}),
      ...(webhookOptions ? { webhooks: webhookOptions } : {}),
    }),
  );
  const adminToken = options.adminToken ?? newId('ncs_admin', 24);
  // Mounts beside the interface, each with its own prefixes and error format (longest prefix wins).
  const verdicts =
    options.clientVerdicts === false ? undefined : createClientVerdicts({ lookupToken: (t) => state.tokens.lookup(t) });
  const control = createControlOperations(
    state,
    verdicts
      ? {
          verdicts,
          signatureHeader: webhookOptions.signatureHeader ?? WEBHOOK_DEFAULTS.signatureHeader,
          ...(webhookOptions.fetch ? { fetch: webhookOptions.fetch } : {}),
        }
      : undefined,
  );
  // Shared: the writing stores, handlers and control operations go through the operation log.
  const sharing = shared && replay ? shareSandbox(state, shared, replay, control) : undefined;
  const inspector =
    options.inspector === false
      ? undefined
      : createInspector(
          { state, control, signatureHeader: webhookOptions.signatureHeader ?? WEBHOOK_DEFAULTS.signatureHeader },
          options.inspector,
        );
  const mounts: Mount[] = [
    createControlPlaneMount({
      adminToken,
      operations: sharing?.control ?? control,
      tokens: state.tokens,
      ...(inspector ? { inspectorLogin: (origin: string) => inspector.newLoginUrl(origin) } : {}),
    }),
  ];
  if (inspector) mounts.push(inspector.mount);
  mounts.push(
    createAuthServerMount({
      state,
      issuer: baseUrl,
      ...(options.refreshTokenTtlSeconds ? { refreshTokenTtlSeconds: options.refreshTokenTtlSeconds } : {}),
    }),
  );
  const core = createCore({
    state,
    mounts,
    allowBrowserCredentials: options.allowBrowserCredentials ?? false,
    streams: {
      ...(options.stream?.limits ? { limits: options.stream.limits } : {}),
      options: {
        ...(options.stream?.retryMs !== undefined ? { retryMs: options.stream.retryMs } : {}),
        ...(options.stream?.heartbeatMs !== undefined ? { heartbeatMs: options.stream.heartbeatMs } : {}),
        ...(options.stream?.maxLagMessages !== undefined ? { maxLagMessages: options.stream.maxLagMessages } : {}),
      },
    },
    ...(webhookOptions.signatureHeader ? { signatureHeader: webhookOptions.signatureHeader } : {}),
    ...(allowedHosts ? { webhookHosts: allowedHosts } : {}),
    ...(options.onResponse ? { onResponse: options.onResponse } : {}),
    ...(options.onError ? { onError: options.onError } : {}),
    ...(options.trace ? { trace: options.trace } : {}),
    ...(inspector ? { onExchange: inspector.journal.record } : {}),
    ...(sharing ? { wrapHandler: sharing.wrapHandler } : {}),
    ...(verdicts ? { observe: verdicts.step } : {}),
  });
  const inner = sharing ? sharing.wrapCore(core) : core;
  const mainCore = options.wrapCore ? options.wrapCore(inner, 'main') : inner;
  const altCore = options.wrapCore ? options.wrapCore(inner, 'alt') : inner;
  let mswHandlers: ReturnType<typeof createMswHandlers> | undefined;
  return {
    core: mainCore,
    altCore,
    state,
    baseUrl,
    altBaseUrl,
    adminToken,
    control,
    // Built on first use: a sandbox served over HTTP never loads msw.
    get handlers() {
      mswHandlers ??= [...createMswHandlers(mainCore, [baseUrl]), ...createMswHandlers(altCore, [altBaseUrl])];
      return mswHandlers;
    },
    ready: sharing ? Promise.all([core.ready, sharing.start()]).then(() => undefined) : core.ready,
    ...(inspector ? { inspector } : {}),
    ...(verdicts ? { verdicts } : {}),
    clientReport: (filter) => control.clientReport(filter),
    receiverCheck: (opts) => control.receiverCheck(opts),
    issueToken(clientId = fixtures.defaultClient, ttlSeconds) {
      const client = state.clients.get(clientId);
      if (!client) throw new Error(`no client ${clientId} in the fixtures`);
      const { token, record } = state.tokens.issue({
        clientId,
        tenants: client.tenants,
        scopes: client.scopes,
        environment: client.environment,
        ...(ttlSeconds ? { ttlSeconds } : {}),
      });
      return {
        token,
        tenant: must(client.tenants[0], 'a fixture client has at least one tenant'),
        clientId,
        expiresAt: new Date(record.expiresAt).toISOString(),
      };
    },
  };
}
