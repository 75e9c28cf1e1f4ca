import { createRequire } from 'node:module';
// The timers module's own function, taken at import: a test's fake timers (which replace the global)
// must not hold every answer back.
import { setImmediate } from 'node:timers';
import type { HttpHandler } from 'msw';
import { drainedTo, stopStream } from '../core/stream-stop.ts';
import type { CoreHandler, DrainTarget, PlainRequest, PlainResponse, StreamStop } from '../core/types.ts';

const encoder = new TextEncoder();
const require = createRequire(import.meta.url);

/** fetch Request -> plain request (translation only). */
export async function fromFetchRequest(request: Request): Promise<PlainRequest> {
  const url = new URL(request.url);
  // No prototype: a parameter named `__proto__` is a parameter like any other, never the object's prototype.
  const query: Record<string, string | string[]> = Object.create(null);
  for (const [k, v] of url.searchParams) {
    const prev = query[k];
    query[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  const headers: Record<string, string> = {};
  request.headers.forEach((v, k) => {
    headers[k.toLowerCase()] = v;
  });
  // The fetch was aborted before its answer (the client's own timeout): when, for the client verdicts.
  const clientGone: { at: number; clock?: () => number; onGone?: () => void } = { at: 0 };
  if (!request.signal.aborted)
    request.signal.addEventListener(
      'abort',
      () => {
        clientGone.at = clientGone.clock ? clientGone.clock() : Date.now();
        clientGone.onGone?.();
      },
      { once: true },
    );
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
  const body = hasBody ? new Uint8Array(await request.arrayBuffer()) : undefined;
  return {
    method: request.method.toUpperCase(),
    path: url.pathname,
    query,
    headers,
    origin: url.origin,
    body: body?.length ? body : undefined,
    clientGone,
  };
}

/** Plain response -> fetch Response; streams become a ReadableStream body. */
export function toFetchResponse(res: PlainResponse): Response {
  // A dropped connection: fetch rejects with a network error, as over a socket.
  if (res.abort) return Response.error();
  if (res.stream) {
    const source = res.stream;
    let stop: StreamStop | undefined;
    let drained: DrainTarget | undefined;
    let closed = false;
    const body = new ReadableStream<Uint8Array>(
      {
        start(controller) {
          stop = source.open({
            write(chunk) {
              if (closed) return false;
              controller.enqueue(encoder.encode(chunk));
              return (controller.desiredSize ?? 1) > 0;
            },
            end() {
              if (closed) return;
              closed = true;
              controller.close();
            },
            onDrain(target) {
              drained = target;
            },
          });
        },
        // The reader took chunks and wants more: the source may write again.
        pull() {
          drainedTo(drained);
        },
        cancel() {
          closed = true;
          stopStream(stop);
        },
      },
      { highWaterMark: 64 },
    );
    return new Response(body, { status: res.status, headers: res.headers });
  }
  // With its length, as node:http sends it: msw ends the emulated connection after an answer without
  // one, so every call would open a new connection (for https, a new TLS context: ~1 ms of CPU).
  // A HEAD answer has no body but carries the GET's length (set by the core).
  if (res.body === undefined && res.headers['content-length'] !== undefined)
    return new Response(null, { status: res.status, headers: res.headers });
  const headers = { ...res.headers, 'content-length': String(Buffer.byteLength(res.body ?? '')) };
  return new Response(res.body ?? null, { status: res.status, headers });
}

/** Handlers waiting for the next turn of the event loop, released together. */
let waiting: Array<() => void> = [];

/**
 * Resolves in the next turn of the event loop (its check phase), together with every call that arrived
 * in this one. msw answers a fetch without leaving microtasks and ticks, while undici makes a
 * connection reusable only in a later check phase: answered at once, each call of a busy test found its
 * connections not yet free and opened a new one (for https, with a new TLS context). And undici sends a
 * call on a kept-alive connection only a turn later, one check-phase callback per connection: released
 * together, calls sent at once still reach the core at once and overlap there, as before.
 */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => {
    if (waiting.push(resolve) > 1) return;
    setImmediate(() => {
      const released = waiting;
      waiting = [];
      for (const release of released) release();
    });
  });
}

/**
 * MSW handlers that hand every request under each base URL to the core.
 * @example setupServer(...createMswHandlers(core, ['https://api.sandbox.example']))
 */
export function createMswHandlers(core: CoreHandler, baseUrls: string[]): HttpHandler[] {
  // msw is loaded here, on first use, so `ncs serve` never loads it (require of an ES module gives
  // the same instance as an import, so these handlers are the test's own msw's handlers).
  const { http } = require('msw') as typeof import('msw');
  return baseUrls.map((base) =>
    http.all(`${base}/*`, async ({ request }) => {
      const plain = await fromFetchRequest(request);
      await nextTurn();
      return toFetchResponse(await core.handle(plain));
    }),
  );
}
