import type { IncomingMessage, ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';

/**
 * The wire-level legal choices of an alternative target (alt-choices.ts, `wire`): how the JSON is
 * written and sent, time offsets, extra fields, list order, the stream's framing. None of them is
 * fixed by the interface, so the kit must read through every one. The simulator's own choices are
 * the defaults (absent `wire`).
 */
export interface WireChoices {
  /** JSON written indented with every object's keys in reverse order (key order and spacing are not shown). */
  prettyReversedKeys: boolean;
  /** Content-Type of JSON answers (any JSON type with parameters). */
  contentType: string;
  /** gzip when the client accepts it, chunked (no Content-Length), Connection: close after each answer. */
  gzipChunkedClose: boolean;
  /** Every date-time written with this UTC offset (RFC 3339 allows any), e.g. '+02:00'. */
  timeOffset: string | null;
  /** Fields the interface does not list: in meta, at data's root and on every record with an id. */
  extraFields: boolean;
  /** List answers (providers, connectors, capabilities, connections) in reverse order (not shown). */
  reverseLists: boolean;
  /** Whether the X-Request-Id header is sent (the interface names none). */
  requestIdHeader: boolean;
  /** Stream framing: CRLF line ends, comment heartbeats, `retry:`, `id:` without a space, numbers shifted by this offset. */
  stream: {
    crlf: boolean;
    heartbeats: boolean;
    idOffset: number;
    /** Every message's JSON written over several `data:` lines (SSE joins them with line feeds). */
    multilineData?: boolean;
    /** No `event:` lines: every message is of the default type "message" (kinds are not shown). */
    noEventField?: boolean;
    /** The stream opens with a byte order mark (SSE: "one leading U+FEFF ... must be ignored"). */
    byteOrderMark?: boolean;
    /** Field names without the optional space after the colon (`data:{…}`, `event:…`). */
    compactFields?: boolean;
  } | null;
  /** JSON text with every character outside ASCII escaped (\u00e9): the same JSON value. */
  asciiEscapes?: boolean;
  /** Date-times in whole seconds (no fraction): RFC 3339 allows both. */
  wholeSeconds?: boolean;
  /** Date-times with six fraction digits (microseconds, as Python's isoformat writes them): RFC 3339 time-secfrac is 1*DIGIT. */
  microseconds?: boolean;
  /** Date-times with a lower-case `t` and `z` (RFC 3339 5.6: "may alternatively be lower case"). */
  lowerCaseTimes?: boolean;
  /** Every `/` in JSON text written as `\/` (PHP's json_encode default): the same JSON value. */
  escapeSlashes?: boolean;
  /** Errors served as application/problem+json, with RFC 9457 members beside the envelope and `error.type`. */
  problemErrors?: boolean;
}

const DATE_TIME = /^(\d{4}-\d\d-\d\d)T(\d\d:\d\d:\d\d)(\.\d+)?Z$/;

/** A UTC timestamp written with another offset: the same instant. */
export function withOffset(value: string, offset: string): string {
  const m = DATE_TIME.exec(value);
  if (!m) return value;
  const sign = offset.startsWith('-') ? -1 : 1;
  const [h, min] = offset.slice(1).split(':').map(Number) as [number, number];
  const shifted = new Date(Date.parse(value) + sign * (h * 60 + min) * 60_000).toISOString();
  return `${shifted.slice(0, 19)}${m[3] ?? ''}${offset}`;
}

/** A date-time as written with an offset: the letters RFC 3339 allows in lower case. */
const ANY_DATE_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)$/;

/** A UTC timestamp in milliseconds written with microseconds (three more digits, a fixed 417: any value is legal). */
const withMicroseconds = (v: string) => v.replace(/(\.\d{3})Z$/, '$1417Z').replace(/:(\d\d)Z$/, ':$1.000417Z');

function transform(value: unknown, w: WireChoices, key = ''): unknown {
  if (typeof value === 'string') {
    if (!DATE_TIME.test(value)) return value;
    let v = w.wholeSeconds ? value.replace(/\.\d+Z$/, 'Z') : value;
    if (w.microseconds) v = withMicroseconds(v);
    if (w.timeOffset) v = withOffset(v, w.timeOffset);
    return w.lowerCaseTimes && ANY_DATE_TIME.test(v) ? v.replace('T', 't').replace(/Z$/, 'z') : v;
  }
  if (Array.isArray(value)) return value.map((v) => transform(v, w));
  if (!value || typeof value !== 'object') return value;
  const entries = Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, transform(v, w, k)] as const);
  const out: Record<string, unknown> = Object.fromEntries(w.prettyReversedKeys ? entries.reverse() : entries);
  if (w.extraFields && typeof out.id === 'string') out.etag = `W/"${out.id.length}"`;
  if (w.extraFields && key === 'meta') out.servedBy = 'alt-c';
  return out;
}

/** A JSON answer's text as this deployment writes it. */
export function writeJson(text: string, w: WireChoices | undefined): string {
  if (!w) return text;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return text;
  }
  return writeJsonValue(body, w);
}

/** A JSON answer (parsed, changed in place) as this deployment writes it. */
export function writeJsonValue(body: unknown, w: WireChoices): string {
  const data = (body as { data?: Record<string, unknown> }).data;
  if (data && typeof data === 'object' && !Array.isArray(data)) {
    if (w.reverseLists && typeof data.count === 'number')
      for (const [k, v] of Object.entries(data)) if (Array.isArray(v)) data[k] = [...v].reverse();
    if (w.extraFields) data.links = { self: null };
  }
  if (w.problemErrors) asProblem(body as Record<string, unknown>);
  let out = JSON.stringify(transform(body, w), null, w.prettyReversedKeys ? 2 : undefined);
  if (w.escapeSlashes) out = out.replaceAll('/', '\\/');
  return w.asciiEscapes ? asciiEscaped(out) : out;
}

/** A failure envelope with the members of RFC 9457 problem details beside it (a Spring-style deployment). */
function asProblem(body: Record<string, unknown>): void {
  const error = body.error as Record<string, unknown> | undefined;
  if (body.ok !== false || !error || typeof error.code !== 'string') return;
  const type = `https://errors.ncs.example/${error.code}`;
  error.type = type;
  if (error.code === 'invalid_request') error.fields = [];
  Object.assign(body, {
    type,
    title: error.message,
    instance: `urn:request:${String((body.meta as { requestId?: unknown } | undefined)?.requestId)}`,
  });
}

/** JSON text with every character outside ASCII written as a \u escape. */
export function asciiEscaped(text: string): string {
  return text.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Sends a JSON answer the way this deployment does (compression, chunks, connection handling). */
export function sendJson(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  headers: Record<string, string>,
  text: string,
  w: WireChoices | undefined,
) {
  if (!w) return void res.writeHead(status, headers).end(text);
  const out = { ...headers };
  if (/json/.test(out['content-type'] ?? ''))
    out['content-type'] = w.problemErrors && status >= 400 ? 'application/problem+json' : w.contentType;
  if (!w.requestIdHeader) delete out['x-request-id'];
  if (!w.gzipChunkedClose) return void res.writeHead(status, out).end(text);
  out.connection = 'close';
  const gzip = /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
  // The fastest level: any gzip stream is what the choice is about (the default level cost twice the CPU).
  const bytes = gzip ? gzipSync(text, { level: 1 }) : Buffer.from(text);
  if (gzip) out['content-encoding'] = 'gzip';
  res.writeHead(status, out);
  // Two writes without a Content-Length: node sends them chunked.
  const half = Math.floor(bytes.length / 2);
  res.write(bytes.subarray(0, half));
  res.end(bytes.subarray(half));
}

/** Whole lines of an event stream as this deployment frames them. */
export function frameStream(lines: string, w: WireChoices | undefined): string {
  const s = w?.stream;
  if (!s) return lines;
  const eol = s.crlf ? '\r\n' : '\n';
  return lines
    .split('\n')
    .map((line, i, all) => {
      if (i === all.length - 1) return line;
      const id = /^id: ?(\d+)$/.exec(line);
      if (id) return `id:${Number(id[1]) + s.idOffset}${eol}`;
      if (s.compactFields && /^(?:data|event): /.test(line)) return `${line.replace(': ', ':')}${eol}`;
      if (s.noEventField && line.startsWith('event:')) return '';
      const data = s.multilineData ? /^data: ?(\{.*\})$/.exec(line) : null;
      if (data?.[1]) {
        try {
          return `${JSON.stringify(JSON.parse(data[1]), null, 1)
            .split('\n')
            .map((l) => `data: ${l}`)
            .join(eol)}${eol}`;
        } catch {
          // Not JSON: as it came.
        }
      }
      if (line === '' && s.heartbeats) return `${eol}: heartbeat${eol}${eol}`;
      return `${line}${eol}`;
    })
    .join('');
}

/** What this deployment writes before a stream's first line: a byte order mark. */
export const streamPreamble = (w: WireChoices | undefined): string => (w?.stream?.byteOrderMark ? '\uFEFF' : '');

/** A resume point the client sent, in the simulator's numbering (a number below the offset reads from the start). */
export function inwardStreamId(value: string, w: WireChoices | undefined): string {
  const off = w?.stream?.idOffset ?? 0;
  if (!off || !/^\d+$/.test(value)) return value;
  return String(Math.max(0, Number(value) - off));
}
