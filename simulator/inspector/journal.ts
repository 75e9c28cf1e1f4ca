import type { ExchangeInfo, PlainRequest, PlainResponse } from '../core/types.ts';
import { RingBuffer } from '../lib/ring-buffer.ts';
import { INSPECTOR_PREFIX } from './paths.ts';
import { redactBody, redactHeaders, redactQuery } from './redact.ts';

/**
 * What the journal keeps per call: its own shallow copies, nothing serialised until someone looks.
 * Not the core's request and response objects themselves: V8 watches whether the objects an
 * allocation site makes live long, and once the journal kept some of the core's, it allocated every
 * later request's objects straight into the old generation (the benchmark's GET /providers lost 17 %
 * of its CPU and the server's RSS doubled, even with only the first 500 calls kept).
 */
interface Raw {
  seq: number;
  method: string;
  path: string;
  query: Record<string, string | string[]>;
  requestHeaders: Record<string, string>;
  requestBody: Uint8Array | undefined;
  status: number;
  responseHeaders: Record<string, string>;
  responseBody: string | undefined;
  stream: boolean;
  requestId: string;
  startedAt: number;
  durationMs: number;
  tenant: string | undefined;
  clientId: string | undefined;
}

/** One call as the inspector shows it in lists. */
export interface JournalSummary {
  seq: number;
  at: string;
  method: string;
  path: string;
  status: number;
  requestId: string;
  tenant?: string;
  clientId?: string;
  durationMs: number;
}

/** One call with its headers and bodies, secrets redacted. */
export interface JournalDetail extends JournalSummary {
  query: string;
  requestHeaders: Record<string, string>;
  requestBody: string;
  responseHeaders: Record<string, string>;
  responseBody: string;
}

export interface JournalFilter {
  tenant?: string;
  /** An exact status (404) or a class (4xx). */
  status?: string;
  /** Substring of the path. */
  path?: string;
  limit?: number;
}

export const DEFAULT_JOURNAL_SIZE = 500;
/**
 * Calls per second kept once a burst has used up the journal's size. A load test's calls are left
 * out (and counted) past that: held in the ring, thousands of answers a second outlive V8's young
 * generation and are copied to the old one, which cost 17 % of the CPU per GET /providers and doubled
 * the server's RSS in the benchmark.
 */
export const DEFAULT_JOURNAL_RATE = 100;
/** Calls kept back to back before the rate applies (at least the journal's size). */
export const DEFAULT_JOURNAL_BURST = 1000;
// A body larger than this is shown cut: the inspector is for reading, not for archiving uploads.
const MAX_BODY_CHARS = 64 * 1024;

const decoder = new TextDecoder();
const cut = (s: string) =>
  s.length > MAX_BODY_CHARS ? `${s.slice(0, MAX_BODY_CHARS)}\n… (${s.length} characters)` : s;

function summary(r: Raw): JournalSummary {
  return {
    seq: r.seq,
    at: new Date(r.startedAt).toISOString(),
    method: r.method,
    path: r.path,
    status: r.status,
    requestId: r.requestId,
    ...(r.tenant ? { tenant: r.tenant } : {}),
    ...(r.clientId ? { clientId: r.clientId } : {}),
    durationMs: Math.round(r.durationMs * 10) / 10,
  };
}

function matches(s: JournalSummary, f: JournalFilter): boolean {
  if (f.tenant && s.tenant !== f.tenant) return false;
  if (f.path && !s.path.includes(f.path)) return false;
  if (f.status) {
    const cls = /^([1-5])xx$/i.exec(f.status)?.[1];
    if (cls ? Math.floor(s.status / 100) !== Number(cls) : String(s.status) !== f.status) return false;
  }
  return true;
}

/**
 * The request journal: the newest `size` calls, held as references (the hot path only pushes);
 * summaries, redaction and text decoding happen when the inspector asks.
 * @example const j = createJournal({ size: 200 }); core = createCore({ ..., onExchange: j.record }); j.list({ status: '4xx' });
 */
export function createJournal(
  opts: { size?: number; ratePerSecond?: number; burst?: number; now?: () => number } = {},
) {
  const capacity = opts.size ?? DEFAULT_JOURNAL_SIZE;
  const rate = opts.ratePerSecond ?? DEFAULT_JOURNAL_RATE;
  const burst = opts.burst ?? Math.max(capacity, DEFAULT_JOURNAL_BURST);
  const now = opts.now ?? performance.now.bind(performance);
  let buffer = new RingBuffer<Raw>(capacity);
  const listeners = new Set<(s: JournalSummary) => void>();
  let seq = 0;
  let skipped = 0;
  // A token bucket: a burst of up to `burst` calls is kept whole, then `rate` calls per second.
  let tokens = burst;
  let refilledAt = now();
  return {
    capacity,
    /** Calls left out because they came faster than the journal's rate (a load test). */
    get skipped() {
      return skipped;
    },
    /** Hot path: called once per answered call. The inspector's own traffic is left out. */
    record(req: PlainRequest, res: PlainResponse, info: ExchangeInfo): void {
      if (req.path.startsWith(INSPECTOR_PREFIX)) return;
      const t = now();
      tokens = Math.min(burst, tokens + ((t - refilledAt) / 1000) * rate);
      refilledAt = t;
      if (tokens < 1) {
        skipped++;
        return;
      }
      tokens--;
      const raw: Raw = {
        seq: ++seq,
        method: req.method,
        path: req.path,
        query: { ...req.query },
        requestHeaders: { ...req.headers },
        requestBody: req.body,
        status: res.status,
        responseHeaders: { ...res.headers },
        responseBody: res.body,
        stream: res.stream !== undefined,
        requestId: info.requestId,
        startedAt: info.startedAt,
        durationMs: info.durationMs,
        tenant: info.tenant,
        clientId: info.clientId,
      };
      buffer.push(raw);
      if (listeners.size) {
        const s = summary(raw);
        for (const l of listeners) l(s);
      }
    },
    /** Newest first. */
    list(filter: JournalFilter = {}): JournalSummary[] {
      const out: JournalSummary[] = [];
      const limit = filter.limit ?? buffer.capacity;
      for (let i = buffer.size - 1; i >= 0 && out.length < limit; i--) {
        const entry = buffer.at(i);
        if (!entry) continue;
        const s = summary(entry);
        if (matches(s, filter)) out.push(s);
      }
      return out;
    },
    get(seqNo: number): JournalDetail | undefined {
      const oldest = buffer.oldest()?.seq ?? 1;
      const raw = buffer.at(seqNo - oldest);
      if (!raw || raw.seq !== seqNo) return undefined;
      const query = Object.entries(raw.query).flatMap(([k, v]) =>
        (Array.isArray(v) ? v : [v]).map((x) => `${encodeURIComponent(k)}=${encodeURIComponent(x)}`),
      );
      const reqType = raw.requestHeaders['content-type'] ?? '';
      const resType = raw.responseHeaders['content-type'] ?? '';
      return {
        ...summary(raw),
        query: redactQuery(query.join('&')),
        requestHeaders: redactHeaders(raw.requestHeaders),
        requestBody: raw.requestBody ? cut(redactBody(decoder.decode(raw.requestBody), reqType)) : '',
        responseHeaders: redactHeaders(raw.responseHeaders),
        responseBody: raw.stream ? '(event stream)' : cut(redactBody(raw.responseBody ?? '', resType)),
      };
    },
    /** Live feed of new calls (the inspector's stream); returns the unsubscribe function. */
    subscribe(listener: (s: JournalSummary) => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    clear(): void {
      buffer = new RingBuffer<Raw>(capacity);
      skipped = 0;
    },
  };
}

export type Journal = ReturnType<typeof createJournal>;
