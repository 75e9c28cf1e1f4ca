import { createMswHandlers } from '../adapters/msw.ts';
import { createAuthServerMount } from '../auth-server/mount.ts';
import { createRefreshFamilyStore } from '../auth-server/refresh-families.ts';
import { createClientVerdicts } from '../client-rules/index.ts';
import { WEBHOOK_DEFAULTS } from '../contract/simulator-defaults.ts';
import { createControlPlaneMount } from '../control/mount.ts';
import { createControlOperations } from '../control/operations.ts';
import type { Mount } from '../core/mount.ts';
import { createInspector } from '../inspector/index.ts';
import { newId } from '../lib/ids.ts';
import { atOnce } from '../services/at-once.ts';
import { DEFAULT_IDEMPOTENCY_TTL_MS } from '../services/idempotency-service.ts';
import { durableRefreshFamilies } from '../state/persistence/durable-refresh-families.ts';
import { andThen } from '../state/ports/maybe-promise.ts';
import { createCore } from './create-core.ts';
import { createRuns, isSameSecret, type Runs, withRuns } from './runs.ts';
import { openSandboxState } from './sandbox-open-state.ts';
import { DEFAULT_ALT_BASE_URL, DEFAULT_BASE_URL, type Sandbox, type SandboxOptions } from './sandbox-options.ts';

// Options, the Sandbox interface and state loading live beside this file; the public names stay here.
export { DEFAULT_ALT_BASE_URL, DEFAULT_BASE_URL, type Sandbox, type SandboxOptions } from './sandbox-options.ts';

/**
 * Creates an in-memory simulator: use its MSW handlers in tests, or serve it over HTTP (`serve`).
 * @example
 * const sandbox = createSandbox();
 * const server = setupServer(...sandbox.handlers); server.listen();
 */
export function createSandbox(options: SandboxOptions = {}): Sandbox {
  const baseUrl = (options.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
  const altBaseUrl = (options.altBaseUrl ?? DEFAULT_ALT_BASE_URL).replace(/\/+$/, '');
  const { fixtures, allowedHosts, webhookOptions, shared, replay, state } = openSandboxState(options);
  const adminToken = options.adminToken ?? newId('ncs_admin', 24);
  // Mounts beside the interface, each with its own prefixes and error format (longest prefix wins).
  const verdicts =
    options.clientVerdicts === false
      ? undefined
      : createClientVerdicts({
          // The observer notes a call after its answer, at once: from a token repository that answers
          // later (none does today: every adapter keeps tokens in the process) it goes without the record.
          lookupToken: (t) => {
            const record = state.tokens.lookup(t);
            return record instanceof Promise ? undefined : record;
          },
          // The rules time calls on the sandbox clock and know how long a key lives, as the service does.
          now: () => state.clock.now(),
          service: {
            keyValidityMs:
              options.idempotency?.ttlSeconds !== undefined
                ? options.idempotency.ttlSeconds * 1000
                : DEFAULT_IDEMPOTENCY_TTL_MS,
          },
        });
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
  const sharing = shared && replay ? shared.wiring.shareSandbox(state, shared, replay, control) : undefined;
  const inspector =
    options.inspector === false
      ? undefined
      : createInspector(
          {
            state,
            // Shared: the inspector's actions go through the log like the control plane's.
            control: sharing?.control ?? control,
            signatureHeader: webhookOptions.signatureHeader ?? WEBHOOK_DEFAULTS.signatureHeader,
          },
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
      // With a data dir the refresh-token families outlive a restart (a shared sandbox shares them instead).
      ...(sharing
        ? { wrapStores: sharing.wrapAuthStores }
        : { repositories: { families: durableRefreshFamilies(createRefreshFamilyStore(), state.persistence) } }),
      ...(options.refreshTokenTtlSeconds ? { refreshTokenTtlSeconds: options.refreshTokenTtlSeconds } : {}),
    }),
  );
  const core = createCore({
    state,
    mounts,
    allowBrowserCredentials: options.allowBrowserCredentials ?? false,
    // Nested options pass straight through: createCore reads each member with its default.
    stream: options.stream,
    signatureHeader: webhookOptions.signatureHeader,
    webhookHosts: allowedHosts,
    onResponse: options.onResponse,
    onError: options.onError,
    trace: options.trace,
    onExchange: inspector?.journal.record,
    wrapHandler: sharing?.wrapHandler,
    observe: verdicts?.step,
  });
  const shareCore = sharing ? sharing.wrapCore(core) : core;
  // Each run is a sandbox of its own (own clock, memory or its own key prefix), without runs or inspector.
  const { adminToken: _a, dataDir: _d, clock: _c, inspector: _i, shared: _s, ...runOptions } = options;
  const runs: Runs | undefined =
    options.runs === false
      ? undefined
      : createRuns({
          ...(shared ? { shared } : {}),
          ...(options.runs?.max !== undefined ? { max: options.runs.max } : {}),
          async open(runId) {
            const store = shared ? await shared.namespace(`run:${runId}`) : undefined;
            const sandbox = createSandbox({
              ...runOptions,
              runs: false,
              inspector: false,
              ...(store ? { shared: store } : {}),
            });
            return { sandbox, ...(store ? { store } : {}) };
          },
        });
  const inner = runs
    ? withRuns(
        shareCore,
        runs,
        adminToken,
        (t) => isSameSecret(t, adminToken) || andThen(state.tokens.lookup(t), (record) => record !== undefined),
      )
    : shareCore;
  if (runs) {
    const close = state.close;
    state.close = async () => {
      await runs.close();
      await close();
    };
  }
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
    ...(runs ? { runs } : {}),
    issueToken(clientId = fixtures.defaultClient, ttlSeconds) {
      const client = atOnce(state.clients.get(clientId), 'issueToken');
      if (!client) throw new Error(`no client ${clientId} in the fixtures`);
      const [tenant] = client.tenants;
      if (tenant === undefined) throw new Error(`client ${clientId} is released for no tenant`);
      const { token, record } = atOnce(
        state.tokens.issue({
          clientId,
          tenants: client.tenants,
          scopes: client.scopes,
          environment: client.environment,
          ...(ttlSeconds ? { ttlSeconds } : {}),
        }),
        'issueToken',
      );
      return { token, tenant, clientId, expiresAt: new Date(record.expiresAt).toISOString() };
    },
  };
}
