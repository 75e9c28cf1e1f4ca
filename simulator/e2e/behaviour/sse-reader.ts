import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type { Target } from '../harness.ts';

export interface SseRead {
  status: number;
  headers: Headers;
  /** Parsed messages (id, event, data) in arrival order. */
  events: EventSourceMessage[];
  /** The `retry:` hint, when sent. */
  retry?: number;
  /** Raw text received (comments included). */
  raw: string;
  /** JSON body when the answer was not a stream. */
  json?: any;
}

/**
 * Opens the stream, reads until `count` messages arrived (or `timeoutMs`), then disconnects.
 * `during` runs once the stream is open, to cause events while it is read.
 */
export async function readStream(
  t: Target,
  opts: {
    headers?: Record<string, string>;
    query?: string;
    count: number;
    /** Stop as soon as this holds (instead of at `count` messages). */
    until?: (events: EventSourceMessage[]) => boolean;
    timeoutMs?: number;
    during?: () => Promise<void>;
  },
): Promise<SseRead> {
  const abort = new AbortController();
  const res = await t.fetch(`${t.baseUrl}/api/public/v1/stream${opts.query ?? ''}`, {
    headers: opts.headers ?? {},
    signal: abort.signal,
  });
  const out: SseRead = { status: res.status, headers: res.headers, events: [], raw: '' };
  if (!res.headers.get('content-type')?.startsWith('text/event-stream')) {
    out.raw = await res.text();
    out.json = JSON.parse(out.raw);
    return out;
  }
  const parser = createParser({
    onEvent: (e) => out.events.push(e),
    onRetry: (ms) => (out.retry = ms),
  });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  const stop = async () => {
    await reader.cancel().catch(() => undefined);
    abort.abort();
  };
  const timer = setTimeout(() => void stop(), opts.timeoutMs ?? 3000);
  const duringDone = opts.during?.();
  try {
    while (out.events.length < opts.count && !opts.until?.(out.events)) {
      const { value, done } = await reader.read();
      if (done) break;
      const text = decoder.decode(value, { stream: true });
      out.raw += text;
      parser.feed(text);
    }
  } catch {
    // aborted by the timeout: return what arrived
  } finally {
    clearTimeout(timer);
    await stop();
    await duringDone;
  }
  return out;
}
