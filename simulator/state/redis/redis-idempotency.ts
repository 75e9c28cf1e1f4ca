import type { Clock } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import type { Begin, IdempotencyOptions, IdempotencyPort, StoredOutcome } from '../idempotency-store.ts';
import type { RedisEngine } from './redis-engine.ts';

// One record per tenant and key, as JSON: {operation?, fingerprint?, expiresAt, outcome?, owner?, leaseUntil?}.
// The outcome stays the JSON text the replica wrote (Lua's cjson would turn an empty array into {}).
// Expiry is judged on sandbox time (the `now` each call passes); Redis' own TTL only collects garbage.
const BEGIN = `
local now = tonumber(ARGV[2])
local raw = redis.call('GET', KEYS[1])
local rec = raw and cjson.decode(raw) or nil
local inflight = rec and rec.owner and rec.leaseUntil > now
if rec and rec.expiresAt <= now and not inflight then rec = nil end
if rec and rec.fingerprint then
  if rec.fingerprint ~= ARGV[1] then return {'conflict'} end
  if rec.outcome then return {'replay', rec.outcome} end
  if inflight then return {'wait'} end
end
local out = {fingerprint = ARGV[1], expiresAt = now + tonumber(ARGV[3]), owner = ARGV[5],
  leaseUntil = now + tonumber(ARGV[4])}
-- An issued key keeps the expiry its issue answer announced (issue 23 item 13): first use does not extend it.
if rec and rec.operation then out.operation = rec.operation; out.expiresAt = rec.expiresAt end
redis.call('SET', KEYS[1], cjson.encode(out), 'PX', tonumber(ARGV[6]))
return {'new'}
`;
const FINISH = `
local raw = redis.call('GET', KEYS[1])
if not raw then return 0 end
local rec = cjson.decode(raw)
if rec.owner ~= ARGV[1] then return 0 end
rec.owner = nil
rec.leaseUntil = nil
if ARGV[2] ~= '' then rec.outcome = ARGV[2]
elseif rec.operation then rec.fingerprint = nil
else redis.call('DEL', KEYS[1]) return 1 end
redis.call('SET', KEYS[1], cjson.encode(rec), 'KEEPTTL')
return 1
`;

/** How long an operation may run before another replica may take its key over (a replica died mid-call). */
const LEASE_MS = 30_000;

/**
 * Idempotency records in Redis, shared by every replica: a Lua script sets the record if absent with
 * an in-flight marker (owner + lease), answers replay or conflict, or tells the caller to wait; a
 * waiting replica polls until the first one's outcome is stored (or its lease ran out).
 * @example const store = createRedisIdempotencyStore(engine, clock); const b = await store.begin('t1', 'key-12345678', fp);
 */
export function createRedisIdempotencyStore(
  engine: RedisEngine,
  clock: Clock,
  options: Partial<IdempotencyOptions> = {},
): IdempotencyPort {
  const opts: IdempotencyOptions = { ttlMs: options.ttlMs ?? 24 * 3600_000, maxRecords: options.maxRecords ?? 200_000 };
  const keyOf = (tenant: string, key: string) => `${engine.prefix}idem:${tenant}\u0000${key}`;
  // Garbage collection in real time: the sandbox clock may run ahead, so keep a day beyond the TTL.
  const gcMs = () => opts.ttlMs + 24 * 3600_000 + Math.max(0, clock.offset());
  let created = 0;
  return {
    options: opts,
    async issue(tenant, operation, now = clock.now()) {
      const idempotencyKey = newId('idk', 24);
      const rec = { operation, expiresAt: now + opts.ttlMs };
      await engine.command(['SET', keyOf(tenant, idempotencyKey), JSON.stringify(rec), 'PX', gcMs()]);
      created++;
      return { idempotencyKey, operation, expiresAt: rec.expiresAt };
    },
    async begin(tenant, key, fingerprint): Promise<Begin> {
      const owner = newId('op', 9);
      const k = keyOf(tenant, key);
      const r = await engine.script<[string, string?]>(
        BEGIN,
        [k],
        [fingerprint, clock.now(), opts.ttlMs, LEASE_MS, owner, gcMs()],
      );
      if (r[0] === 'conflict') return { kind: 'conflict' };
      if (r[0] === 'replay') return { kind: 'replay', outcome: JSON.parse(r[1] ?? 'null') as StoredOutcome };
      if (r[0] === 'wait')
        return { kind: 'wait', settled: new Promise((res) => setTimeout(res, 5 + Math.random() * 20)) };
      created++;
      return {
        kind: 'new',
        async finish(outcome) {
          await engine.script(FINISH, [k], [owner, outcome ? JSON.stringify(outcome) : '']);
        },
      };
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
