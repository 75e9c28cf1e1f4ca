import type { Clock } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import { type Begin, type IdempotencyOptions, type IdempotencyPort, idempotencyOptions } from '../ports/idempotency.ts';
import type { RedisEngine } from './redis-engine.ts';

// The adapter of IdempotencyPort for a shared sandbox. The idempotency service's rules
// (services/idempotency-service.ts: fingerprint comparison, expiry at first use + TTL on the sandbox
// clock, an issued key keeping its expiresAt) are restated in the CLAIM script because judging a key and
// claiming it must be one atomic step across replicas.
// One record per tenant and key, as JSON: {operation?, fingerprint?, expiresAt, entry?}. `entry` is the
// id of the operation-log entry that made the key's operation: the claim and the append are one script,
// so a record never exists without its entry, and no replica ever waits on another one's lease.
// Every replica applies that entry and keeps its outcome (see shared-idempotency.ts): a replay is read
// from there, and no outcome is written back to Redis.
// Expiry is judged on sandbox time (the `now` each call passes); Redis' own TTL only collects garbage.
// KEYS: record, log. ARGV: fingerprint, now, ttlMs, gcMs, entry JSON, entry id the caller found freed.
const CLAIM = `
local now = tonumber(ARGV[2])
local raw = redis.call('GET', KEYS[1])
local rec = raw and cjson.decode(raw) or nil
if rec and rec.expiresAt <= now then rec = nil end
if rec and rec.fingerprint and rec.entry ~= ARGV[6] then
  if rec.fingerprint ~= ARGV[1] then return {'conflict', rec.entry} end
  return {'replay', rec.entry}
end
local id = redis.call('XADD', KEYS[2], '*', 'e', ARGV[5])
local out = {fingerprint = ARGV[1], expiresAt = now + tonumber(ARGV[3]), entry = id}
-- An issued key keeps the expiry its issue answer announced (issue 23 item 13): first use does not extend it.
if rec and rec.operation then out.operation = rec.operation; out.expiresAt = rec.expiresAt end
redis.call('SET', KEYS[1], cjson.encode(out), 'PX', tonumber(ARGV[4]))
return {'new', id}
`;

/** The shared store: the port the idempotency step uses, plus the claim the writing routes make. */
export interface RedisIdempotencyStore extends IdempotencyPort {
  /**
   * Claims the key and appends `entry` to the log `logKey` in one script. Answers ['new', id]
   * (appended), ['replay', id] (the same content holds the key: entry id's outcome answers) or
   * ['conflict', id] (other content holds it). `freed` is an entry whose operation kept no outcome:
   * a record still naming it is claimed afresh.
   */
  claim(
    tenant: string,
    key: string,
    fingerprint: string,
    entry: string,
    logKey: string,
    freed?: string,
  ): Promise<string[]>;
}

/**
 * Idempotency records in Redis, shared by every replica. `begin` lets every call through (its finish
 * keeps nothing): in a shared sandbox every idempotent route is a writing route, and its claim is
 * made with its log entry by `claim`, one round trip for both.
 * @example const store = createRedisIdempotencyStore(engine, clock); await store.claim('t1', 'key-12345678', fp, entry, 'ncs:log');
 */
export function createRedisIdempotencyStore(
  engine: RedisEngine,
  clock: Clock,
  options: Partial<IdempotencyOptions> = {},
): RedisIdempotencyStore {
  const opts = idempotencyOptions(options);
  const keyOf = (tenant: string, key: string) => `${engine.prefix}idem:${tenant}\u0000${key}`;
  // Garbage collection in real time: the sandbox clock may run ahead, so keep a day beyond the TTL.
  const gcMs = () => opts.ttlMs + 24 * 3600_000 + Math.max(0, clock.offset());
  let created = 0;
  const open: Begin = { kind: 'new', finish: () => undefined };
  return {
    options: opts,
    async issue(tenant, operation, now = clock.now()) {
      const idempotencyKey = newId('idk', 24);
      const rec = { operation, expiresAt: now + opts.ttlMs };
      await engine.command(['SET', keyOf(tenant, idempotencyKey), JSON.stringify(rec), 'PX', gcMs()]);
      created++;
      return { idempotencyKey, operation, expiresAt: rec.expiresAt };
    },
    begin: () => open,
    async claim(tenant, key, fingerprint, entry, logKey, freed = '') {
      const args = [fingerprint, clock.now(), opts.ttlMs, gcMs(), entry, freed];
      const reply = await engine.script<string[]>(CLAIM, [keyOf(tenant, key), logKey], args);
      if (reply[0] === 'new') created++;
      return reply;
    },
    size: () => created,
    clear() {
      created = 0;
    },
  };
}

/** Drops every idempotency record and rate-limit window of this sandbox (the control plane's reset). */
export async function clearSharedRecords(engine: RedisEngine): Promise<void> {
  for (const pattern of [`${engine.prefix}idem:*`, `${engine.prefix}rl:*`]) {
    let cursor = '0';
    do {
      const [next, keys] = await engine.command<[string, string[]]>(['SCAN', cursor, 'MATCH', pattern, 'COUNT', 1000]);
      cursor = next;
      if (keys.length) await engine.command(['UNLINK', ...keys]);
    } while (cursor !== '0');
  }
}
