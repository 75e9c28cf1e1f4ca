import type { ExchangeInfo, PlainRequest, PlainResponse } from '../core/types.ts';
import { RingBuffer } from '../lib/ring-buffer.ts';
import { INSPECTOR_PREFIX } from './paths.ts';
import { redactBody, redactHeaders, redactQuery } from './redact.ts';
import { must } from '../lib/invariant.ts';

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
  /** Body sizes as received and answered (bytes / characters), before any cut. */
  requestBytes: number;
  responseChars: number;
  /** What this entry's kept bodies cost against the byte budget; 0 once they were dropped. */
  cost: number;
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
/**
 * Bytes of one body the journal keeps: past it a body is cut when recorded (a copy of its head, so the
 * caller's buffer can go). The inspector is for reading calls, not for archiving uploads.
 */
export const JOURNAL_BODY_BYTES = 64 * 1024;
/**
 * Bytes of bodies the whole journal keeps (default 16 MiB; `--journal-bytes`). Past it the bodies of the
 * oldest calls are dropped (their summaries stay) and counted: 800 one-MiB posts once pinned 745 MB.
 */
export const DEFAULT_JOURNAL_BYTES = 16 * 1024 * 1024;

const decoder = new TextDecoder();
const encoder = new TextEncoder();
const DROPPED = "(body dropped: the journal's byte budget went to newer calls)";
const cutNote = (total: number, unit: string) =>
  `\n… (cut: ${total} ${unit} received, the first ${JOURNAL_BODY_BYTES} kept)`;

function shownBody(text: string, total: number, unit: string, r: Raw, type: string): string {
  if (total > 0 && r.cost === 0 && r.requestBody === undefined && r.responseBody === undefined) return DROPPED;
  const shown = redactBody(text, type);
  return total > JOURNAL_BODY_BYTES ? `${shown}${cutNote(total, unit)}` : shown;
}

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
  opts: { size?: number; ratePerSecond?: number; burst?: number; now?: () => number; maxBytes?: number } = {},
) {
  const capacity = opts.size ?? DEFAULT_JOURNAL_SIZE;
  const maxBytes = opts.maxBytes ?? DEFAULT_JOURNAL_BYTES;
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 1)
    throw new RangeError(`the journal's byte budget must be a positive whole number of bytes, not ${maxBytes}`);
  let bytes = 0;
  let bodiesDropped = 0;
  let bodiesTruncated = 0;
  /** Seq of the oldest entry that may still hold bodies: everything older already gave them up. */
  let dropFrom = 1;
  const dropOldest = () => {
    const oldest = buffer.oldest()?.seq ?? dropFrom;
    dropFrom = Math.max(dropFrom, oldest);
    while (bytes > maxBytes) {
      const r = buffer.at(dropFrom - oldest);
      if (!r) break;
      dropFrom++;
      if (!r.cost) continue;
      bytes -= r.cost;
      r.cost = 0;
      r.requestBody = undefined;
      r.responseBody = undefined;
      bodiesDropped++;
    }
  };
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
    /** What the byte budget holds and what it let go (shown in the inspector's journal and overview). */
    stats() {
      return {
        calls: buffer.size,
        bytes,
        maxBytes,
        bodyBytes: JOURNAL_BODY_BYTES,
        bodiesTruncated,
        bodiesDropped,
        skipped,
      };
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
      // Cut oversized bodies now, as copies: holding a view of a 1 MiB upload would keep all of it.
      let requestBody = req.body;
      if (requestBody && requestBody.length > JOURNAL_BODY_BYTES) {
        requestBody = requestBody.slice(0, JOURNAL_BODY_BYTES);
        bodiesTruncated++;
      }
      let responseBody = res.body;
      if (responseBody && responseBody.length > JOURNAL_BODY_BYTES) {
        // Through bytes and back: a String#slice may share (and so keep) the whole original string.
        responseBody = decoder.decode(encoder.encode(responseBody.slice(0, JOURNAL_BODY_BYTES)));
        bodiesTruncated++;
      }
      const cost = (requestBody?.length ?? 0) + (responseBody?.length ?? 0);
      const raw: Raw = {
        seq: ++seq,
        method: req.method,
        path: req.path,
        query: { ...req.query },
        requestHeaders: { ...req.headers },
        requestBody,
        status: res.status,
        responseHeaders: { ...res.headers },
        responseBody,
        stream: res.stream !== undefined,
        requestId: info.requestId,
        startedAt: info.startedAt,
        durationMs: info.durationMs,
        tenant: info.tenant,
        clientId: info.clientId,
        requestBytes: req.body?.length ?? 0,
        responseChars: res.body?.length ?? 0,
        cost,
      };
      const evicted = buffer.push(raw);
      if (evicted) bytes -= evicted.cost;
      bytes += cost;
      if (bytes > maxBytes) dropOldest();
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
        const s = summary(must(buffer.at(i), 'a journal index lies inside its ring'));
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
        requestBody: shownBody(
          raw.requestBody ? decoder.decode(raw.requestBody) : '',
          raw.requestBytes,
          'bytes',
          raw,
          reqType,
        ),
        responseHeaders: redactHeaders(raw.responseHeaders),
        responseBody: raw.stream
          ? '(event stream)'
          : shownBody(raw.responseBody ?? '', raw.responseChars, 'characters', raw, resType),
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
      bytes = 0;
      bodiesDropped = 0;
      bodiesTruncated = 0;
      dropFrom = seq + 1;
    },
  };
}

export type Journal = ReturnType<typeof createJournal>;
