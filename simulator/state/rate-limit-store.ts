import type { RateLimitRepository, RateLimitWindow } from './ports/rate-limits.ts';

/**
 * The rate-limit counters in memory: one window record per key, changed in place (no allocation per
 * counted call once a key has its window).
 * @example const repository = createRateLimitStore(); repository.put('client|tenant|sandbox', now, 1);
 */
export function createRateLimitStore() {
  const windows = new Map<string, RateLimitWindow>();
  return {
    get: (key: string): RateLimitWindow | undefined => windows.get(key),
    put(key: string, start: number, count: number) {
      const w = windows.get(key);
      if (w) {
        w.start = start;
        w.count = count;
      } else windows.set(key, { start, count });
    },
    size: () => windows.size,
    entries: (): Iterable<[string, RateLimitWindow]> => windows.entries(),
    remove(key: string) {
      windows.delete(key);
    },
    clear() {
      windows.clear();
    },
  } satisfies RateLimitRepository;
}

export type RateLimitStore = ReturnType<typeof createRateLimitStore>;
