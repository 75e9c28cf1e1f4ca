// The status stream: a port of Javalin's `app.sse("/stream") { client -> ... }` with `client.sendEvent(event,
// data, id)`. Every message has a global consecutive number as its `id:` line; a client resumes after the number it
// read (Last-Event-ID first, as browsers send it, else ?cursor=). Without either, the stream starts with the next
// message (no backlog): the team's consumers always persist their cursor.
import { ApiError, type Ctx } from './http.ts';
import { instant, type Rec, type Store } from './state.ts';
import { dispatch } from './webhooks.ts';

/** Appends a status message (stream) and hands it to the webhook worker. */
export function publish(store: Store, type: string, tenant: string, connection: Rec): void {
  const event: Rec = {
    sequence: store.events.length + 1,
    type,
    occurredAt: instant(),
    connectionId: connection.id,
    connectorId: connection.connectorId,
    environment: connection.environment,
    state: connection.state,
  };
  store.events.push(event);
  for (const l of store.listeners) l(event);
  dispatch(store, type, tenant, connection, event);
}

function position(raw: string | null, name: string): number | undefined {
  if (raw === null || raw === '') return undefined;
  if (!/^\d+$/.test(raw.trim())) {
    throw new ApiError('invalid_request', `${name} must be an integer of at least 0.`, 'Send the last number read.');
  }
  return Number(raw.trim());
}

function frame(e: Rec): string {
  return `id: ${e.sequence}\nevent: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`;
}

export function stream(store: Store, ctx: Ctx): void {
  const header = ctx.req.headers['last-event-id'];
  const fromHeader = position(typeof header === 'string' ? header : null, 'Last-Event-ID');
  const fromQuery = position(ctx.url.searchParams.get('cursor'), 'Query parameter cursor');
  const after = fromHeader ?? fromQuery;
  const res = ctx.res;
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'x-request-id': ctx.requestId,
  });
  res.write(': connected\n\n');
  // Numbers written on this connection: a message published while the backlog is written is sent once.
  let sent = after ?? store.events.length;
  const push = (e: Rec) => {
    if (e.sequence <= sent) return;
    sent = e.sequence;
    res.write(frame(e));
  };
  if (after !== undefined) for (const e of store.events.slice(after)) push(e);
  store.listeners.add(push);
  const ping = setInterval(() => res.write(': ping\n\n'), 15_000);
  const stop = () => {
    clearInterval(ping);
    store.listeners.delete(push);
  };
  res.on('close', stop);
  ctx.req.on('close', stop);
}
