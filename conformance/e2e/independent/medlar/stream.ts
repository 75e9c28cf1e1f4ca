// GET /api/public/v1/stream, edge-runtime style: a ReadableStream of Server-Sent Events with a `retry:` field
// and periodic `: keep-alive` comments, piped to the node response. Public; with a bearer token and a tenant
// header it is the tenant's stream, otherwise the public one (no tenant data).
import { Readable } from 'node:stream';
import { PUBLIC_SCOPE } from './events.ts';
import type { Ctx } from './types.ts';
import { invalid } from './util.ts';

function position(raw: string | undefined, name: string): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d{1,15}$/.test(raw.trim())) throw invalid(`${name} must be an integer of at least 0.`);
  return Number(raw.trim());
}

/** Checks the request (may throw a 4xx) and returns the function that writes the stream. */
export function prepareStream(ctx: Ctx): () => void {
  const { app, req, res } = ctx;
  const lastEventId = req.headers['last-event-id'];
  const fromHeader = position(Array.isArray(lastEventId) ? lastEventId[0] : lastEventId, 'Last-Event-ID');
  const cursorRaw = ctx.url.searchParams.get('cursor');
  const fromCursor = position(cursorRaw ?? undefined, 'cursor');
  let scope = PUBLIC_SCOPE;
  if (req.headers.authorization) {
    const clientId = app.auth.verify(req.headers.authorization);
    if (req.headers['x-service-tenant']) scope = app.auth.tenant(clientId, req.headers['x-service-tenant']);
  }
  const after = fromHeader ?? fromCursor ?? (app.settings.streamStart === 'live' ? app.events.last(scope) : 0);
  return () => {
    const encoder = new TextEncoder();
    let unsubscribe = () => {};
    let timer: NodeJS.Timeout | undefined;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(
          encoder.encode(`retry: 3000\n: medlar stream ${scope === PUBLIC_SCOPE ? 'public' : 'tenant'}\n\n`),
        );
        unsubscribe = app.events.subscribe(scope, after, (m) => {
          controller.enqueue(encoder.encode(`id: ${m.id}\nevent: ${m.event}\ndata: ${m.data}\n\n`));
        });
        timer = setInterval(() => controller.enqueue(encoder.encode(': keep-alive\n\n')), app.settings.keepAliveMs);
      },
      cancel() {
        unsubscribe();
        clearInterval(timer);
      },
    });
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
      'x-request-id': ctx.requestId,
      'service-version': ctx.version,
    });
    res.flushHeaders();
    const node = Readable.fromWeb(body as import('node:stream/web').ReadableStream<Uint8Array>);
    node.pipe(res);
    const stop = () => {
      unsubscribe();
      clearInterval(timer);
      node.destroy();
    };
    res.on('close', stop);
    req.on('close', stop);
  };
}
