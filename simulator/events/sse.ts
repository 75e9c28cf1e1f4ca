import { type FeedMessage, messageDataJson } from './feed.ts';

export type { StreamReset } from './feed.ts';

/** Response headers of an event stream (no-transform/x-accel-buffering keep proxies from holding messages back). */
export const SSE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache, no-transform',
  'x-accel-buffering': 'no',
});

/** Name of the control message sent when a cursor cannot be resumed from without a gap. */
export const STREAM_RESET_EVENT = 'stream.reset';

const frames = new WeakMap<FeedMessage, string>();

/**
 * One message as an SSE block: `id:`, `event:`, the JSON data on one line, a blank line. Encoded once
 * per message however many streams carry it.
 * @example encodeSseMessage({ id: 7, event: 'service.status', data: { status: 'ok' }, at }) // 'id: 7\nevent: service.status\ndata: {"status":"ok"}\n\n'
 */
export function encodeSseMessage(m: FeedMessage): string {
  let frame = frames.get(m);
  if (frame === undefined) {
    frame = `id: ${m.id}\nevent: ${m.event}\ndata: ${messageDataJson(m)}\n\n`;
    frames.set(m, frame);
  }
  return frame;
}

/** A message outside the numbered feed: no `id:` line, so a client's last event id is left alone. */
export function encodeSseControl(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** A comment line (ignored by clients; keeps connections and proxies alive). @example encodeSseComment('heartbeat') // ': heartbeat\n\n' */
export function encodeSseComment(text: string): string {
  return `: ${text.replace(/[\r\n]+/g, ' ')}\n\n`;
}

/** The keep-alive comment every open stream gets on each heartbeat (one string for all). */
export const HEARTBEAT_FRAME = encodeSseComment('heartbeat');

/** The reconnection delay hint. @example encodeSseRetry(3000) // 'retry: 3000\n\n' */
export function encodeSseRetry(ms: number): string {
  return `retry: ${Math.max(0, Math.round(ms))}\n\n`;
}

/** A cursor that is not a non-negative integer; the route answers 400 invalid_request with its message. */
export class CursorError extends Error {
  readonly source: 'Last-Event-ID' | 'cursor';
  constructor(source: 'Last-Event-ID' | 'cursor', message: string) {
    super(message);
    this.name = 'CursorError';
    this.source = source;
  }
}

function parseOne(source: 'Last-Event-ID' | 'cursor', raw: string): number {
  // Echoed only when short and not a credential sent by mistake (a token in the wrong header came back,
  // its first 40 characters, in an answer that logs and the inspector keep).
  const shown = raw.length <= 24 && !/^ncs_/i.test(raw) ? `"${raw}"` : `${raw.length} characters, not shown`;
  const bad = () =>
    new CursorError(source, `${source} must be the last message number read, an integer >= 0 (got ${shown})`);
  if (!/^\d{1,16}$/.test(raw)) throw bad();
  const n = Number(raw);
  if (!Number.isSafeInteger(n)) throw bad();
  return n;
}

/**
 * The resumption point of a stream request. Both places are validated; when both are sent the
 * Last-Event-ID header wins (EventSource sends it on every reconnect, while the URL keeps the first
 * cursor). An empty Last-Event-ID counts as absent (per the SSE standard an empty id resets it).
 * @example parseCursor(req.headers['last-event-id'], req.query.cursor) // { cursor: 41, source: 'header' }
 * @throws CursorError when either is not an integer >= 0, or cursor is given more than once.
 */
export function parseCursor(
  header: string | undefined,
  query: string | string[] | undefined,
): { cursor: number | undefined; source: 'header' | 'query' | 'none' } {
  if (Array.isArray(query)) throw new CursorError('cursor', 'cursor may be given only once');
  const headerValue = header?.trim();
  const fromHeader = headerValue ? parseOne('Last-Event-ID', headerValue) : undefined;
  const fromQuery = query !== undefined ? parseOne('cursor', query) : undefined;
  if (fromHeader !== undefined) return { cursor: fromHeader, source: 'header' };
  if (fromQuery !== undefined) return { cursor: fromQuery, source: 'query' };
  return { cursor: undefined, source: 'none' };
}

/**
 * The resumption point a stream request names, read as the stream itself reads it (parseCursor), or
 * undefined when it names none or an invalid one: for the observers beside the stream (client rules, faults).
 * @example resumePoint('', '41') // 41: an empty Last-Event-ID counts as absent
 */
export function resumePoint(header: string | undefined, query: string | string[] | undefined): number | undefined {
  try {
    return parseCursor(header, query).cursor;
  } catch {
    return undefined;
  }
}
