import type { createMswHandlers } from '../adapters/msw.ts';
import type { ClientReport, ClientVerdicts } from '../client-rules/index.ts';
import type { Environment } from '../contract/environment.ts';
import type { FixtureSet } from '../contract/fixtures.ts';
import type { ControlOperations } from '../control/operations.ts';
import type { StreamLimits } from '../events/stream-limits.ts';
import type { Inspector, InspectorOptions } from '../inspector/index.ts';
import type { Clock } from '../lib/clock.ts';
import type { RateLimitSettings } from '../services/rate-limit-service.ts';
import type { ReceiverCheckResult } from '../webhooks/receiver-check.ts';
import type { Core, RequestLogEntry } from './create-core.ts';
import type { Runs } from './runs.ts';
import type { SandboxState, WebhookOptions } from './sandbox-state.ts';
import type { SharedStore } from './shared-sandbox.ts';

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
  /** Access tokens kept per client, live or expired (default 10,000); past it the client's oldest is dropped. */
  maxTokensPerClient?: number;
  /** Lifetime of each refresh token; every rotation issues a fresh one (default 86 400 s). */
  refreshTokenTtlSeconds?: number;
  /** Calls per window per access, tenant and environment (default 1200 per 60 s); false switches it off. */
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
  /**
   * Webhook deliveries: timeouts, retries, queue, signature header name, the hosts receivers may use
   * (default loopback) and the receivers a tenant may have at once (default 100).
   */
  webhooks?: WebhookOptions & { allowedHosts?: readonly string[]; maxReceiversPerTenant?: number };
  /** Persist state in an embedded SQLite database in this folder (default: memory only). */
  dataDir?: string;
  /**
   * Share the state with other replicas through Redis (`openSharedStore(url)`; `ncs serve --store`).
   * Not together with `dataDir`: Redis is then where the state lasts.
   */
  shared?: SharedStore;
  /** Per-run namespaces (`POST /_sandbox/runs`); default on, false leaves them out; `max`: runs held at once (500). */
  runs?: false | { max?: number };
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
  /** Per-run namespaces (unless `runs: false`). */
  runs?: Runs;
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
