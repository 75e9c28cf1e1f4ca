import { RingBuffer } from '../lib/ring-buffer.ts';
import type { ExchangeInfo, PlainRequest, PlainResponse } from '../core/types.ts';
import { INSPECTOR_PREFIX } from './paths.ts';
import { redactBody, redactHeaders, redactQuery } from './redact.ts';

/** What the journal keeps per call: references only, nothing serialised until someone looks. */
interface Raw {
  seq: number;
  req: PlainRequest;
  res: PlainResponse;
  info: ExchangeInfo;
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
// A body larger than this is shown cut: the inspector is for reading, not for archiving uploads.
const MAX_BODY_CHARS = 64 * 1024;

const decoder = new TextDecoder();
const cut = (s: string) =>
  s.length > MAX_BODY_CHARS ? `${s.slice(0, MAX_BODY_CHARS)}\n… (${s.length} characters)` : s;

function summary(r: Raw): JournalSummary {
  return {
    seq: r.seq,
    at: new Date(r.info.startedAt).toISOString(),
    method: r.req.method,
    path: r.req.path,
    status: r.res.status,
    requestId: r.info.requestId,
    ...(r.info.tenant ? { tenant: r.info.tenant } : {}),
    ...(r.info.clientId ? { clientId: r.info.clientId } : {}),
    durationMs: Math.round(r.info.durationMs * 10) / 10,
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
export function createJournal(opts: { size?: number } = {}) {
  const capacity = opts.size ?? DEFAULT_JOURNAL_SIZE;
  let buffer = new RingBuffer<Raw>(capacity);
  const listeners = new Set<(s: JournalSummary) => void>();
  let seq = 0;
  return {
    capacity,
    /** Hot path: called once per answered call. The inspector's own traffic is left out. */
    record(req: PlainRequest, res: PlainResponse, info: ExchangeInfo): void {
      if (req.path.startsWith(INSPECTOR_PREFIX)) return;
      const raw: Raw = { seq: ++seq, req, res, info };
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
        const s = summary(buffer.at(i)!);
        if (matches(s, filter)) out.push(s);
      }
      return out;
    },
    get(seqNo: number): JournalDetail | undefined {
      const oldest = buffer.oldest()?.seq ?? 1;
      const raw = buffer.at(seqNo - oldest);
      if (!raw || raw.seq !== seqNo) return undefined;
      const query = Object.entries(raw.req.query).flatMap(([k, v]) =>
        (Array.isArray(v) ? v : [v]).map((x) => `${encodeURIComponent(k)}=${encodeURIComponent(x)}`),
      );
      const reqType = raw.req.headers['content-type'] ?? '';
      const resType = raw.res.headers['content-type'] ?? '';
      return {
        ...summary(raw),
        query: redactQuery(query.join('&')),
        requestHeaders: redactHeaders(raw.req.headers),
        requestBody: raw.req.body ? cut(redactBody(decoder.decode(raw.req.body), reqType)) : '',
        responseHeaders: redactHeaders(raw.res.headers),
        responseBody: raw.res.stream ? '(event stream)' : cut(redactBody(raw.res.body ?? '', resType)),
      };
    },
    /** Live feed of new calls (the inspector's stream); returns the unsubscribe function. */
    subscribe(listener: (s: JournalSummary) => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    clear(): void {
      buffer = new RingBuffer<Raw>(capacity);
    },
  };
}

export type Journal = ReturnType<typeof createJournal>;
