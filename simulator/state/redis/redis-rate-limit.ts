import type { Clock } from '../../lib/clock.ts';
import {
  checkRateLimitSettings,
  RATE_LIMIT_PRESETS,
  type RateLimitDecision,
  type RateLimitSettings,
} from '../ports/rate-limits.ts';
import type { RedisEngine } from './redis-engine.ts';

// The rate-limit service's fixed window (services/rate-limit-service.ts: opensWindow, resetSecondsOf),
// restated here because reading, judging and counting a window must be one atomic step across replicas:
// this adapter implements the same RateLimitPort as the service, with the window rule in the script.
// One hash per key and settings generation.
// A window starts with the first call after the previous one ended; a clock moved back (reset) starts a new one.
const HIT = `
local now = tonumber(ARGV[1])
local span = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
local w = redis.call('HMGET', KEYS[1], 'start', 'count')
local start = tonumber(w[1])
local count = tonumber(w[2]) or 0
if (not start) or now >= start + span or now < start - 1000 then
  start = now
  count = 0
end
if count >= limit then return {0, tostring(start), count} end
count = count + 1
redis.call('HSET', KEYS[1], 'start', tostring(start), 'count', count)
redis.call('PEXPIRE', KEYS[1], span + 60000)
return {1, tostring(start), count}
`;

/** Rate limits exact across replicas: each call is one atomic script on the shared counter. */
export interface SharedRateLimits {
  settings(): RateLimitSettings | false;
  configure(settings: RateLimitSettings | false): void;
  hit(key: string): Promise<RateLimitDecision> | undefined;
  clear(): void;
  /** Settings and their generation (the windows' keys): what a snapshot keeps. */
  exportState(): { settings: RateLimitSettings | false; generation: number };
  importState(s: { settings: RateLimitSettings | false; generation: number }): void;
}

/**
 * @example const limits = createRedisRateLimits(engine, clock); const d = await limits.hit('client|tenant|sandbox');
 */
export function createRedisRateLimits(
  engine: RedisEngine,
  clock: Clock,
  initial: RateLimitSettings | false = RATE_LIMIT_PRESETS.default,
): SharedRateLimits {
  let current: RateLimitSettings | false = initial === false ? false : checkRateLimitSettings(initial);
  // New settings start every window afresh: windows are keyed by the settings they count under.
  let generation = 0;
  return {
    settings: () => current,
    configure(settings) {
      current = settings === false ? false : checkRateLimitSettings(settings);
      generation++;
    },
    hit(key) {
      if (current === false) return undefined;
      const { limit, windowSeconds } = current;
      const span = windowSeconds * 1000;
      const now = clock.now();
      const k = `${engine.prefix}rl:${limit}/${windowSeconds}:${generation}:${key}`;
      return engine.script<[number, string, number]>(HIT, [k], [now, span, limit]).then(([ok, start, count]) => {
        const resetSeconds = Math.max(1, Math.ceil((Number(start) + span - now) / 1000));
        return { allowed: ok === 1, limit, remaining: Math.max(0, limit - count), resetSeconds };
      });
    },
    clear() {
      generation++;
    },
    exportState: () => ({ settings: current, generation }),
    importState(s) {
      current = s.settings === false ? false : checkRateLimitSettings(s.settings);
      generation = s.generation;
    },
  };
}
