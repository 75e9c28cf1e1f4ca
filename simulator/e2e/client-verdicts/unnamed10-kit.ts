import type { Target } from '../harness.ts';

/**
 * Round 10 writes clients no earlier round used: worker pools sharing one rate-limit budget, keys on
 * reads and capability checks, token renewal at the very end of a lifetime, Rust `backon`, Clojure
 * `diehard`, Perl `LWP::UserAgent::Determined`. Schedules are written from the libraries' documentation
 * (none is installed), with a seeded draw. A schedule gets the retry number (0 for the first), returns ms.
 */

/** The sandbox clock now (ms): what a client reading its own clock sees. */
export const now = (t: Target) => t.sandbox.state.clock.now();

/**
 * Rust `backon` `ExponentialBuilder::default()`: min 1 s, factor 2, max 60 s, max_times 3, jitter off;
 * `.with_jitter()` adds `random(0..delay)` to each delay.
 */
export const backon = (random?: () => number) => (n: number) => {
  const d = Math.min(1_000 * 2 ** n, 60_000);
  return Math.round(random ? d + random() * d : d);
};

/**
 * Clojure `diehard` (Failsafe underneath) `{:backoff-ms [500 8000 2.0] :jitter-factor 0.25}`: the
 * delay `500 * 2^n` capped at 8 s, then moved by a random part of up to ±25 % of it.
 */
export const diehard = (random: () => number) => (n: number) =>
  Math.round(Math.min(500 * 2 ** n, 8_000) * (1 + (random() * 2 - 1) * 0.25));

/** Perl `LWP::UserAgent::Determined` default `timing("1,3,15")`: 1 s, 3 s, 15 s, fixed. */
export const lwpDetermined = (n: number) => [1_000, 3_000, 15_000][n] ?? 15_000;

/** A fresh v4-looking key from a seeded draw (what an SDK stamping every request would send). */
export function stampedKey(random: () => number, prefix = 'req'): string {
  const hex = Array.from({ length: 24 }, () => Math.floor(random() * 16).toString(16)).join('');
  return `${prefix}-${hex}`;
}
