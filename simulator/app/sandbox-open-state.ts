import { loadFixtures } from './fixtures-loader.ts';
import { PersistenceError } from '../state/persistence/persistence-error.ts';
import type { Persistence } from '../state/persistence/persistence.ts';
import { openSqlitePersistence } from '../state/persistence/sqlite-persistence.ts';
import { createSandboxState, type SandboxState } from './sandbox-state.ts';
import { mswPassthroughFetch } from '../webhooks/passthrough-fetch.ts';
import { createClock } from '../lib/clock.ts';
import type { SandboxOptions } from './sandbox-options.ts';

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
 * Loads the fixtures and builds a sandbox's state (memory, SQLite data dir or shared store) from its options.
 * @example const { state, fixtures } = openSandboxState({ activationDelayMs: 0 });
 */
export function openSandboxState(options: SandboxOptions) {
  const fixtures =
    typeof options.fixtures === 'object' ? loadFixtures(options.fixtures) : loadFixtures(options.fixtures);
  const { allowedHosts, maxReceiversPerTenant, ...webhookOptions } = { ...options.webhooks };
  // In a test process MSW intercepts every outgoing request, deliveries included: mark them to pass through.
  webhookOptions.fetch ??= mswPassthroughFetch;
  if (options.shared && options.dataDir) throw new Error('use --store or --data-dir, not both');
  const shared = options.shared;
  const replay = shared ? shared.wiring.replayClock(options.clock ?? createClock()) : undefined;
  const clock = replay ?? options.clock;
  // Shared: the stores write through to memory that a log snapshot is taken from (and built from).
  const persistence = options.dataDir ? openSqlitePersistence(options.dataDir) : shared?.persistence;
  const state = loadState(persistence, () =>
    createSandboxState({
      fixtures,
      environment: options.environment ?? 'sandbox',
      tokenTtlSeconds: options.tokenTtlSeconds ?? 900,
      ...(options.maxTokensPerClient !== undefined ? { maxTokensPerClient: options.maxTokensPerClient } : {}),
      activationDelayMs: options.activationDelayMs ?? 2000,
      idempotency: {
        ...(options.idempotency?.ttlSeconds !== undefined ? { ttlMs: options.idempotency.ttlSeconds * 1000 } : {}),
        ...(options.idempotency?.maxRecords !== undefined ? { maxRecords: options.idempotency.maxRecords } : {}),
      },
      ...(clock ? { clock } : {}),
      ...(shared && clock
        ? {
            shared: shared.wiring.sharedStoresOf(
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
      ...(maxReceiversPerTenant !== undefined ? { maxReceiversPerTenant } : {}),
    }),
  );
  return { fixtures, allowedHosts, webhookOptions, shared, replay, state };
}
