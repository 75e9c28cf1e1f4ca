import { createParser } from 'eventsource-parser';
import type { Exchange } from './exchange.ts';
import { lastIdTracker } from './sse-last-id.ts';

/** One message of an event stream as the kit read it. */
export interface SseEvent {
  /** The `id:` field, if the block had one. */
  id?: string;
  event?: string;
  data: string;
}

/** An open event stream (or the plain answer a stream request got instead). */
export interface SseSession {
  /** Status and headers; `text` grows with the raw stream read so far (the evidence of a failure). */
  ex: Exchange;
  /** The answer is 2xx and its body is being read as a stream (whatever its content type says). */
  isStream: boolean;
  /** Every message read so far, in order. */
  readonly events: readonly SseEvent[];
  /**
   * Reads until `done(events)` holds, the stream ends or `timeoutMs` passes; never throws. A read in
   * progress when the time is up is kept for the next call, so nothing is lost between calls.
   */
  readUntil(done: (events: readonly SseEvent[]) => boolean, timeoutMs: number): Promise<readonly SseEvent[]>;
  /** Stops reading and closes the connection (idempotent). */
  close(): Promise<void>;
}

/** What the stream reader needs of a fetch Response body. */
export interface StreamBodyLike {
  getReader(): { read(): Promise<{ done: boolean; value?: Uint8Array }>; cancel(reason?: unknown): Promise<void> };
}

/** Raw text kept as evidence, at most this much. */
const MAX_EVIDENCE = 20_000;

/**
 * Reads a text/event-stream body with eventsource-parser: works with any fetch whose body is a web
 * ReadableStream (undici, globalThis.fetch under MSW). `abort` ends the underlying request.
 * @example const session = sseSession(ex, res.body, () => controller.abort()); await session.readUntil((e) => e.length >= 3, 2000);
 */
export function sseSession(
  ex: Exchange,
  body: StreamBodyLike,
  abort: () => void,
  limits: {
    maxBytes?: number;
    onCapped?: () => void;
    /** How long the run's calls were held (a 429's Retry-After) since a time on Date.now's clock: added to a wait. */
    heldSince?: (from: number) => number;
  } = {},
): SseSession {
  const maxBytes = limits.maxBytes ?? Number.POSITIVE_INFINITY;
  let bytes = 0;
  const events: SseEvent[] = [];
  const parser = createParser({
    onEvent: (m) =>
      void events.push({
        ...(m.id !== undefined ? { id: m.id } : {}),
        ...(m.event !== undefined ? { event: m.event } : {}),
        data: m.data,
      }),
  });
  const sentId = Object.entries(ex.requestHeaders ?? {}).find(([k]) => k.toLowerCase() === 'last-event-id')?.[1];
  const trackId = lastIdTracker(sentId, (block) => {
    ex.idOnlyBlocks = [...(ex.idOnlyBlocks ?? []), block];
  });
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let pending: Promise<{ done: boolean; value?: Uint8Array } | { error: unknown }> | undefined;
  let ended = false;
  let closed = false;

  async function readUntil(done: (e: readonly SseEvent[]) => boolean, timeoutMs: number) {
    let deadline = performance.now() + timeoutMs;
    // The messages waited for follow the run's own writes: while a 429 held those, the wait is lengthened by as much.
    const from = Date.now();
    let lengthened = 0;
    while (!ended && !done(events)) {
      let left = deadline - performance.now();
      if (left <= 0 && limits.heldSince) {
        const held = limits.heldSince(from);
        deadline += held - lengthened;
        lengthened = held;
        left = deadline - performance.now();
      }
      if (left <= 0) break;
      pending ??= reader.read().catch((error: unknown) => ({ error }));
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), left)));
      const result = await Promise.race([pending, timeout]);
      clearTimeout(timer);
      // Time is up: the loop's head lengthens the wait by any hold, or ends it.
      if (result === 'timeout') continue;
      pending = undefined;
      if ('error' in result || result.done || !result.value) {
        ended = true;
        break;
      }
      bytes += result.value.length;
      if (bytes > maxBytes) {
        // A stream that sends more than the kit reads is cut, not followed without bound.
        ended = true;
        ex.streamCappedAt = maxBytes;
        limits.onCapped?.();
        await reader.cancel().catch(() => undefined);
        abort();
        break;
      }
      const chunk = decoder.decode(result.value, { stream: true });
      if (ex.text.length < MAX_EVIDENCE) ex.text += chunk.slice(0, MAX_EVIDENCE - ex.text.length);
      parser.feed(chunk);
      trackId(chunk);
    }
    return events;
  }

  return {
    ex,
    isStream: true,
    events,
    readUntil,
    async close() {
      if (closed) return;
      closed = true;
      ended = true;
      await reader.cancel().catch(() => undefined);
      abort();
    },
  };
}

/** A session for an answer that is not an event stream (its body was read as usual). */
export function notAStream(ex: Exchange): SseSession {
  return { ex, isStream: false, events: [], readUntil: async () => [], close: async () => undefined };
}
