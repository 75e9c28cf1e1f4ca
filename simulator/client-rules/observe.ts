import { BASE_PATH } from '../contract/versions.ts';
import { ApiError } from '../core/api-error.ts';
import type { AccessToken, RequestContext } from '../core/context.ts';
import { isDataReply, type Reply } from '../core/reply.ts';
import { defineStep, type Step } from '../core/step.ts';
import { stopStream } from '../core/stream-stop.ts';
import type { DrainTarget, PlainResponse, StreamSink, StreamSource, StreamStop } from '../core/types.ts';
import { resumePoint } from '../events/sse.ts';
import { browserFetchMetadata, noteBrowser } from './browser-calls.ts';
import { idleBefore, routeSpelling } from './call-place.ts';
import { canonicalHash, contentHash } from './content-hash.ts';
import {
  BURST_GAP_MS,
  type CallRecord,
  type ClientBucket,
  type Observations,
  type StreamRecord,
} from './observation.ts';

const STREAM_PATH = `${BASE_PATH}/stream`;
const ANONYMOUS = '(anonymous)';

export interface ObserverDeps {
  observations: Observations;
  /** Resolves a bearer token the pipeline refused before auth ran (an injected fault, the browser guard). */
  lookupToken?: (token: string) => AccessToken | undefined;
  /**
   * The sandbox clock (default real time): calls are timed on it, so time the control plane advances
   * passes for the client rules as it does for tokens and keys.
   */
  now?: () => number;
  /** The bucket's ring dropped a call (its oldest) to keep this one: the verdicts it still owes (kept-verdicts.ts). */
  onCallDropped?: (b: ClientBucket, dropped: CallRecord) => void;
}

function bearer(header: string | undefined): string | undefined {
  if (!header || header.length < 8 || header.slice(0, 7).toLowerCase() !== 'bearer ') return undefined;
  return header.slice(7).trim();
}

function cursorOf(ctx: RequestContext): number | undefined {
  return resumePoint(ctx.req.headers['last-event-id'], ctx.req.query.cursor);
}

/** Notes the numbered messages (`id: N`) and any stream.reset a stream sends, and when it ends. */
function watchStream(source: StreamSource, s: StreamRecord, now: () => number): StreamSource {
  return { open: (sink) => openObserved(source, s, sink, now) };
}

// One object per open stream, no closure per method; outside watchStream so the stop function
// captures only that object, not the source and record around it.
function openObserved(source: StreamSource, s: StreamRecord, sink: StreamSink, now: () => number): StreamStop {
  const observed = sink.onDrain ? new DrainableObservedSink(sink, s, now) : new ObservedSink(sink, s, now);
  observed.stopSource = source.open(observed);
  // The observed sink is the stop handle: no closure per open stream.
  return observed;
}

class ObservedSink implements StreamSink {
  protected readonly sink: StreamSink;
  private readonly record: StreamRecord;
  private readonly now: () => number;
  stopSource: StreamStop | undefined;
  constructor(sink: StreamSink, record: StreamRecord, now: () => number) {
    this.sink = sink;
    this.record = record;
    this.now = now;
  }
  write(chunk: string): boolean {
    const s = this.record;
    if (chunk.startsWith('id: ')) {
      const id = Number.parseInt(chunk.slice(4), 10);
      const at = this.now();
      if (s.lastId === undefined || at - s.lastAt > BURST_GAP_MS) s.burstFirstId = id;
      s.firstId ??= id;
      s.lastId = id;
      s.lastAt = at;
    } else if (chunk.startsWith('event: stream.reset')) s.reset = true;
    return this.sink.write(chunk);
  }
  end(): void {
    this.record.endedAt ||= this.now();
    this.sink.end();
  }
  stop(): void {
    // Stopped before the server ended it: the client closed the connection.
    if (!this.record.endedAt) {
      this.record.endedAt = this.now();
      this.record.closedByClient = true;
    }
    stopStream(this.stopSource);
  }
}

class DrainableObservedSink extends ObservedSink {
  onDrain(target: DrainTarget): void {
    this.sink.onDrain?.(target);
  }
}

/**
 * The observer hook: one pipeline step, first in line, that notes each call of a known client (one
 * small record into a bounded ring) for the client rules. It never changes an answer. Anonymous calls
 * are noted only when they are stream connections (keyed by address) or carry credentials from a browser.
 * @example createCore({ state, observe: clientObserver({ observations, lookupToken: (t) => state.tokens.lookup(t) }) });
 */
export function clientObserver(deps: ObserverDeps): Step {
  const obs = deps.observations;
  const now = deps.now ?? Date.now;
  return defineStep({
    name: 'client-observer',
    // One .then per call, no async wrapper: the step adds one promise and one small record.
    run(ctx, next) {
      const at = now();
      // The validate step hashes the body it parses (see contentHash): parsed once per call.
      ctx.noteBody = canonicalHash;
      // A give-up is timed on the clock the calls are timed on (a client gone already: at its arrival).
      const gone = ctx.req.clientGone;
      const isStream = ctx.req.method === 'GET' && routeSpelling(ctx.req.path) === STREAM_PATH;
      if (gone) {
        if (gone.at && !gone.clock) gone.at = at;
        gone.clock = now;
        // A give-up while the service holds the call: reports see it before its answer is written. Not for
        // a stream (its end is noted as the stream's), whose exchange lives as long as it is open.
        if (!isStream)
          gone.onGone = () => {
            try {
              noteGiveUp(deps, obs, ctx, at, gone.at);
            } catch {}
          };
      }
      // Read before the pipeline: a cursor_expired fault takes the cursor off the request.
      const cursor = isStream ? cursorOf(ctx) : undefined;
      return next().then(
        (reply) => {
          // Observation never changes an answer: a fault in it costs the record, not the call.
          try {
            note(deps, obs, ctx, at, isStream, cursor, answerOf(ctx, reply), undefined);
          } catch {}
          return reply;
        },
        (err: unknown) => {
          try {
            note(deps, obs, ctx, at, isStream, cursor, undefined, err);
          } catch {}
          throw err;
        },
      );
    },
  });
}

/**
 * The answer as the client will see its status and headers: a raw answer as it is (a stream the
 * observer wraps is the one sent), a value with the headers the steps set for its envelope.
 */
function answerOf(ctx: RequestContext, reply: Reply): PlainResponse {
  return isDataReply(reply) ? { status: reply.status, headers: ctx.responseHeaders } : reply.raw;
}

function note(
  deps: ObserverDeps,
  obs: Observations,
  ctx: RequestContext,
  at: number,
  isStream: boolean,
  cursor: number | undefined,
  res: PlainResponse | undefined,
  thrown: unknown,
): void {
  const now = deps.now ?? Date.now;
  const answeredAt = now();
  const gone = ctx.req.clientGone;
  if (gone) {
    // Answered: the give-up hook (and the call it holds) is let go.
    gone.onGone = undefined;
    if (gone.at) obs.released(ctx.requestId);
  }
  const h = ctx.req.headers;
  const token = ctx.access?.token ?? (h.authorization ? lookup(deps, h.authorization) : undefined);
  const tenant = ctx.access?.tenant ?? h['x-service-tenant'] ?? '-';
  if (h.origin !== undefined || ctx.req.method === 'OPTIONS' || browserFetchMetadata(h))
    noteBrowser(obs, ctx, at, tenant, token);
  if (!token && !isStream) return;
  const b = obs.bucket(token?.clientId ?? `${ANONYMOUS} ${ctx.req.clientAddress ?? ''}`.trim(), tenant);
  b.lastSeen = answeredAt;
  if (isStream && res?.stream) {
    res.stream = watchStream(res.stream, noteStream(b, ctx.requestId, at, cursor, token), now);
    return;
  }
  if (!token) return;
  const err = thrown instanceof ApiError ? thrown : undefined;
  const retryAfter = res ? res.headers['retry-after'] : err?.headers['retry-after'];
  const dropped = b.calls.push({
    seq: obs.nextSeq(),
    requestId: ctx.requestId,
    at,
    answeredAt,
    method: ctx.req.method,
    path: routeSpelling(ctx.req.path),
    key: h['idempotency-key'],
    bodyHash: contentHash(ctx),
    modifying: ctx.route?.idempotent === true,
    status: res ? (res.abort ? 0 : res.status) : (err?.status ?? 500),
    // When the client gave up before the answer (its own timeout): a call after that is a retry, a
    // call beside one still awaited is a parallel call.
    watched: ctx.req.clientGone !== undefined,
    // The runtime noted it on the sandbox clock the step handed it (see run).
    goneAt: ctx.req.clientGone?.at ?? 0,
    // A call opening a connection that was accepted before another call's answer left was sent beside it.
    connection: ctx.req.connection?.first ? ctx.req.connection.id : 0,
    connectionsAtAnswer: ctx.req.connection?.opened() ?? 0,
    connectionIdleMs: idleBefore(ctx, at),
    code: err?.code,
    retryAfterMs: retryAfter !== undefined && /^\d+$/.test(retryAfter) ? Number(retryAfter) * 1000 : undefined,
    version: h['service-version'],
    contentType: h['content-type'],
    contentEncoding: h['content-encoding'],
    token,
  });
  if (dropped) deps.onCallDropped?.(b, dropped);
}

/**
 * A call its client gave up on while the service still works on it: a provisional record (no answer yet,
 * answeredAt 0) the reports read until the answer writes the real one. A create held for 20 s and sent again
 * under a new key after the client's 5 s timeout is then judged at once, not only once the hold ends.
 */

function noteGiveUp(deps: ObserverDeps, obs: Observations, ctx: RequestContext, at: number, goneAt: number): void {
  const h = ctx.req.headers;
  const token = ctx.access?.token ?? (h.authorization ? lookup(deps, h.authorization) : undefined);
  if (!token) return;
  obs.holdGiveUp(token.clientId, ctx.access?.tenant ?? h['x-service-tenant'] ?? '-', {
    seq: obs.nextSeq(),
    requestId: ctx.requestId,
    at,
    answeredAt: 0,
    method: ctx.req.method,
    path: routeSpelling(ctx.req.path),
    key: h['idempotency-key'],
    bodyHash: contentHash(ctx),
    modifying: ctx.route?.idempotent === true,
    status: 0,
    watched: true,
    goneAt,
    connection: ctx.req.connection?.first ? ctx.req.connection.id : 0,
    connectionsAtAnswer: 0,
    connectionIdleMs: 0,
    code: undefined,
    retryAfterMs: undefined,
    version: h['service-version'],
    contentType: h['content-type'],
    contentEncoding: h['content-encoding'],
    token,
  });
}

function lookup(deps: ObserverDeps, authorization: string): AccessToken | undefined {
  const t = bearer(authorization);
  return t && deps.lookupToken ? deps.lookupToken(t) : undefined;
}

function noteStream(
  b: ClientBucket,
  requestId: string,
  at: number,
  cursor: number | undefined,
  token: AccessToken | undefined,
): StreamRecord {
  const s: StreamRecord = {
    ...(token ? { token } : {}),
    requestId,
    at,
    endedAt: 0,
    cursor,
    firstId: undefined,
    lastId: undefined,
    lastAt: 0,
    reset: false,
    burstFirstId: undefined,
    closedByClient: false,
  };
  const dropped = b.streams.push(s);
  if (dropped) b.streamsDroppedEnd = Math.max(b.streamsDroppedEnd, dropped.endedAt || Number.POSITIVE_INFINITY);
  return s;
}
