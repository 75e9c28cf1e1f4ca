// What the wait rules read from a client's retry sequences: which waits are the client's own (backoff), and
// those waits by position (first retry, second, ...) across its sequences, with the spread between them.
import { must } from '../lib/invariant.ts';
import { type Chain, type Link, RETRYABLE } from './attempts.ts';

/** A wait within this of the server's Retry-After was set by the server, not by the client's backoff. */
export const FLOOR_BAND_MS = 50;
/**
 * Timer slack: a wait this much shorter than Retry-After still counts as respecting it. A wait is measured
 * from the answer leaving, so a client that slept the whole Retry-After never reads shorter; 3 ms covers
 * a timer firing a millisecond early and clocks counting whole milliseconds.
 */
export const RETRY_AFTER_SLACK_MS = 3;
/** Spread: same-position waits of retry sequences differing by more than this (median) show random spread... */
export const SPREAD_MIN_MS = 40;
/**
 * ...and, over at least NO_SPREAD_MIN_DIFFS comparisons, half of them within SAME_WAIT_MS and three in
 * four within NO_SPREAD_P75_MS show none (anything else: undecided). Random draws of even 100 ms fall
 * this close now and then, so one or two comparisons never decide "no spread"; a busy machine may add a
 * delay of some ms to any wait, and a long one to one in four.
 */
export const SAME_WAIT_MS = 20;
export const NO_SPREAD_P75_MS = 40;
export const NO_SPREAD_MIN_DIFFS = 6;
/** The wait honoured a Retry-After (it lasted at least that long): its length is at least partly the server's. */
export const honoured = (l: Link) =>
  l.floorGiven && l.waitMs !== undefined && l.waitMs >= l.floorMs - RETRY_AFTER_SLACK_MS;
/**
 * A wait the client chose before a retry: after an answer that allows one (a repeat after a 4xx is no
 * retry; retry.only-after-failure judges it, its waits are no backoff), answered, and not set by the
 * server (within FLOOR_BAND_MS beyond a Retry-After). A wait shorter than the Retry-After ignored it:
 * the client chose that one too (a 503's Retry-After is judged by no other rule, so an immediate retry
 * storm against it is judged here).
 */
export const backoff = (l: Link): l is Link & { waitMs: number } =>
  RETRYABLE.has(l.cause) && l.waitMs !== undefined && (!honoured(l) || l.waitMs > l.floorMs + FLOOR_BAND_MS);

/**
 * Growth of a wait: at least this many ms or this share of it, whichever is more (10 ms, 5 %): less is
 * the same wait measured on a busy machine, where an answer and the next arrival are each late by some ms.
 */
export const GROWTH_MIN_MS = 10;
export const GROWTH_MIN_SHARE = 0.05;
/** Waits below this are no wait at all (an immediate retry, measured late on a busy machine): two in a row never grow. */
export const IMMEDIATE_MS = 50;
/** The least growth that counts after a wait of `ms`. */
export const growthMin = (ms: number) => Math.max(GROWTH_MIN_MS, ms * GROWTH_MIN_SHARE);

/** The client's own backoff waits (not a Retry-After it honoured) at each position of its retry sequences. */
export function ownWaitsByPosition(chains: Chain[]): number[][] {
  const byPos: number[][] = [];
  for (const c of chains)
    c.links.forEach((l, k) => {
      if (!backoff(l) || honoured(l)) return;
      const at = byPos[k] ?? [];
      at.push(l.waitMs);
      byPos[k] = at;
    });
  return Array.from(byPos, (w) => w ?? []);
}

/** Median backoff wait at each position of the client's retry sequences (undefined where none). */
export function positionMedians(chains: Chain[]): (number | undefined)[] {
  const byPos: number[][] = [];
  for (const c of chains)
    c.links.forEach((l, k) => {
      if (!backoff(l)) return;
      const at = byPos[k] ?? [];
      at.push(l.waitMs);
      byPos[k] = at;
    });
  return Array.from(byPos, (w) => (w?.length ? median(w) : undefined));
}

export function median(values: number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  return must(sorted[Math.floor((sorted.length - 1) / 2)], 'values is not empty');
}

/** Same-position differences of the client's retry sequences, summarised; undefined with fewer than two. */
export function sequenceSpread(chains: Chain[]): { median: number; noSpread: boolean } | undefined {
  const withWaits = chains.filter((c) => c.links.some(backoff)).slice(-20);
  const diffs: number[] = [];
  for (let i = 0; i < withWaits.length; i++)
    for (let j = i + 1; j < withWaits.length; j++)
      diffs.push(
        ...positionDiffs(must(withWaits[i], 'i < length'), must(withWaits[j], 'j < length')).map(([, d]) => d),
      );
  return diffs.length ? spreadOfDiffs(diffs) : undefined;
}

/** Median of the differences, and whether they show no spread (see SAME_WAIT_MS). */
export function spreadOfDiffs(diffs: number[]): { median: number; noSpread: boolean } {
  const sorted = [...diffs].sort((x, y) => x - y);
  const p75 = must(sorted[Math.ceil(sorted.length * 0.75) - 1], 'diffs is not empty');
  const mid = median(sorted);
  return {
    median: mid,
    noSpread: sorted.length >= NO_SPREAD_MIN_DIFFS && mid <= SAME_WAIT_MS && p75 <= NO_SPREAD_P75_MS,
  };
}

/** A chain starts with the call its first link repeats, so it is never empty. */
export const firstCall = (c: Chain) => must(c.calls[0], 'a chain holds the call it starts with');

/**
 * Differences of same-position backoff waits of two retry sequences. Two immediate retries (both under
 * IMMEDIATE_MS) are left out: a schedule that retries at once first (urllib3 sleeps 0 before its first
 * retry, whatever its jitter) has nothing there to spread, and their zero difference says nothing about
 * the waits it does draw; immediate retries are retry.growing-waits' to judge.
 */
export function positionDiffs(x: Chain, y: Chain): [position: number, diff: number][] {
  const out: [number, number][] = [];
  for (let k = 0; k < Math.min(x.links.length, y.links.length); k++) {
    const [a, b] = [x.links[k], y.links[k]];
    if (!a || !b || !backoff(a) || !backoff(b)) continue;
    if (a.waitMs < IMMEDIATE_MS && b.waitMs < IMMEDIATE_MS) continue;
    out.push([k, Math.abs(a.waitMs - b.waitMs)]);
  }
  return out;
}
