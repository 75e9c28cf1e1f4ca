import type { RequestContext } from '../core/context.ts';
import type { Next } from '../core/pipeline.ts';
import type { Reply } from '../core/reply.ts';
import { stopStream } from '../core/stream-stop.ts';
import type { DrainTarget, StreamSink, StreamSource, StreamStop } from '../core/types.ts';
import { type FeedService, PUBLIC_FEED, tenantFeed } from '../events/feed.ts';
import { encodeSseControl, resumePoint, STREAM_RESET_EVENT } from '../events/sse.ts';
import type { Fault, FaultService } from '../services/fault-service.ts';

export interface StreamFaultDeps {
  /** Where stream_restart arms its 503 for the restart's duration. */
  faults: Pick<FaultService, 'add'>;
  /** The feeds, for the last id a cursor_expired reset names (0 without). */
  feeds?: Pick<FeedService, 'lastId'>;
  /** The clock the fault windows run on (default: real time); the sandbox passes its own. */
  timing?: FaultTiming;
}

/**
 * The time the fault windows (a stall, a restart's 503s, a held answer, added latency) run on. The
 * sandbox passes its clock and timeline: a window ends when the sandbox clock reaches its end, in real
 * time as before, or at once when the control plane advances the clock past it (as lifecycle
 * transitions and token expiry do), so a test moves the clock instead of sleeping.
 * @example faultStep(state.faults, { timing: { now: () => state.clock.now(), at: state.timeline.at } });
 */
export interface FaultTiming {
  /** Now, ms. */
  now(): number;
  /** Calls fn once `now()` reaches `due`; answers a function that cancels it. */
  at(due: number, fn: () => void): () => void;
}

/** Real time: plain timers (ref'd, like a sleep, so a held answer keeps its process). */
export const REAL_TIMING: FaultTiming = {
  now: Date.now,
  at(due, fn) {
    const timer = setTimeout(fn, Math.max(0, due - Date.now()));
    return () => clearTimeout(timer);
  },
};

/** Resolves once `ms` have passed on the fault windows' clock. */
export function waitFor(timing: FaultTiming, ms: number): Promise<void> {
  return new Promise((resolve) => void timing.at(timing.now() + ms, resolve));
}

export const DEFAULT_STALL_MS = 30_000;
export const DEFAULT_DOWN_MS = 2_000;

/**
 * Wraps a stream so that, after `after` numbered messages went out, `act` runs once (outside the
 * write that triggered it) with a function that ends the stream. Messages are SSE blocks starting `id:`.
 */
function afterMessages(source: StreamSource, after: number, act: (end: () => void) => (() => void) | void) {
  return {
    open(sink: StreamSink) {
      let seen = 0;
      let silent = false;
      let stop: StreamStop | undefined;
      // What act left waiting (a stall's end): dropped once the stream is over.
      let pending: (() => void) | undefined;
      let ended = false;
      const end = () => {
        if (ended) return;
        ended = true;
        pending?.();
        stopStream(stop);
        sink.end();
      };
      const inner: StreamSink = {
        write(chunk) {
          if (silent || ended) return true;
          const ok = sink.write(chunk);
          if (chunk.startsWith('id:') && ++seen === after) {
            silent = true;
            setImmediate(() => {
              if (!ended) pending = act(end) ?? undefined;
            });
          }
          return ok;
        },
        end: () => {
          ended = true;
          sink.end();
        },
        ...(sink.onDrain ? { onDrain: (target: DrainTarget) => sink.onDrain?.(target) } : {}),
      };
      stop = source.open(inner);
      return () => {
        ended = true;
        pending?.();
        stopStream(stop);
      };
    },
  } satisfies StreamSource;
}

/** The cursor a stream request carries (Last-Event-ID or ?cursor), when it is a whole number. */
export function cursorOf(ctx: RequestContext): number | undefined {
  return resumePoint(ctx.req.headers['last-event-id'], ctx.req.query.cursor);
}

/**
 * The status-stream faults, applied when a stream opens:
 * - stream_cut: after `afterMessages` messages (default 1) the server ends the stream;
 * - stream_stall: after them the stream goes silent (no messages, no heartbeats) for `stallMs`, then ends;
 * - stream_restart: after them the stream ends and the stream route answers 503 for `downMs` (a restart);
 *   both windows run on `deps.timing` (the sandbox clock: advancing it past the window ends it);
 * - cursor_expired: a reconnect with a cursor is told (`stream.reset`, reason cursor_expired) that its cursor
 *   is older than the retention window, and continues with live messages, as if everything retained had aged out.
 * Other routes pass untouched.
 */
export async function applyStreamFault(
  ctx: RequestContext,
  fault: Fault,
  next: Next,
  deps: StreamFaultDeps,
): Promise<Reply> {
  if (fault.kind === 'cursor_expired') {
    const cursor = cursorOf(ctx);
    if (cursor === undefined) return next();
    const { cursor: _c, ...query } = ctx.req.query;
    const { 'last-event-id': _l, ...headers } = ctx.req.headers;
    ctx.req = { ...ctx.req, query, headers };
    const reply = await next();
    const res = 'raw' in reply ? reply.raw : undefined;
    if (!res?.stream) return reply;
    const tenant = ctx.access?.tenant;
    const lastId = (await deps.feeds?.lastId(tenant ? tenantFeed(tenant) : PUBLIC_FEED)) ?? 0;
    const source = res.stream;
    res.stream = {
      open(sink) {
        sink.write(
          encodeSseControl(STREAM_RESET_EVENT, {
            reason: 'cursor_expired',
            cursor,
            oldestRetained: lastId + 1,
            lastId,
          }),
        );
        return source.open(sink);
      },
    };
    return reply;
  }
  const reply = await next();
  // A stream is a raw answer; anything else (a refusal, a document) passes untouched.
  const res = 'raw' in reply ? reply.raw : undefined;
  if (!res?.stream) return reply;
  const after = Math.max(1, fault.afterMessages ?? 1);
  if (fault.kind === 'stream_cut') res.stream = afterMessages(res.stream, after, (end) => end());
  else if (fault.kind === 'stream_stall') {
    const stall = fault.stallMs ?? DEFAULT_STALL_MS;
    const timing = deps.timing ?? REAL_TIMING;
    res.stream = afterMessages(res.stream, after, (end) => timing.at(timing.now() + stall, end));
  } else if (fault.kind === 'stream_restart') {
    const down = fault.downMs ?? DEFAULT_DOWN_MS;
    res.stream = afterMessages(res.stream, after, (end) => {
      const armed = deps.faults.add({
        kind: 'unavailable',
        route: ctx.route?.id ?? ctx.req.path,
        ...(fault.tenant ? { tenant: fault.tenant } : {}),
        remaining: Number.POSITIVE_INFINITY,
        expiresAt: (deps.timing ?? REAL_TIMING).now() + down,
        retryAfterSeconds: Math.ceil(down / 1000),
      });
      // The stream ends once the 503 is armed, so the client's reconnect meets it.
      if (armed instanceof Promise) armed.then(end, end);
      else end();
    });
  }
  return reply;
}
