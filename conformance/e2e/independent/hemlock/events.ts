// One place where something happens: the event goes onto the global stream sequence (one numbering for
// every tenant, the stream is public and carries no tenant data) and to the tenant's webhook receivers.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type CallContext, header, invalid, isoUsec, newId } from './http-kit.ts';
import type { State, StreamMessage } from './state.ts';
import { deliverEvent } from './webhook-delivery.ts';

const BACKLOG_LIMIT = 50_000;
const HEARTBEAT_MS = 15_000;

export function publish(
  state: State,
  tenant: string,
  event: string,
  publicData: Record<string, unknown>,
  tenantData: Record<string, unknown>,
): void {
  const eventId = newId('ev');
  const occurredAt = isoUsec();
  const seq = (state.stream.at(-1)?.seq ?? 0) + 1;
  const message: StreamMessage = { seq, event, data: { id: eventId, type: event, occurredAt, data: publicData } };
  state.stream.push(message);
  if (state.stream.length > BACKLOG_LIMIT) state.stream.shift();
  for (const l of state.streamListeners) l(message);
  deliverEvent(state, tenant, { id: eventId, type: event, occurredAt, data: tenantData });
}

function format(m: StreamMessage): string {
  return `id: ${m.seq}\nevent: ${m.event}\ndata: ${JSON.stringify(m.data)}\n\n`;
}

/** Where to resume: ?cursor wins over Last-Event-ID; neither means live messages only. */
function resumeFrom(req: IncomingMessage, url: URL): number | undefined {
  const cursor = url.searchParams.get('cursor');
  if (cursor !== null) {
    if (!/^\d{1,15}$/.test(cursor))
      throw invalid('cursor must be an integer of at least 0.', 'Send the number of the last message read.');
    return Number(cursor);
  }
  const last = header(req, 'last-event-id');
  if (last !== undefined && last.trim() !== '') {
    if (!/^\d{1,15}$/.test(last.trim())) throw invalid('Last-Event-ID must be the number of the last message read.');
    return Number(last.trim());
  }
  return undefined;
}

export function handleStream(
  req: IncomingMessage,
  res: ServerResponse,
  state: State,
  ctx: CallContext,
  url: URL,
): void {
  // Without cursor or Last-Event-ID: live messages only, or (streamFromStart) the whole retained backlog.
  const from = resumeFrom(req, url) ?? (state.options.streamFromStart ? 0 : undefined);
  res.writeHead(200, {
    ...ctx.headers,
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
    'x-request-id': ctx.requestId,
  });
  res.write(`retry: 2000\n: hemlock stream, version ${ctx.version}\n\n`);
  let last = from ?? state.stream.at(-1)?.seq ?? 0;
  if (from !== undefined) {
    for (const m of state.stream) {
      if (m.seq > last) {
        res.write(format(m));
        last = m.seq;
      }
    }
  }
  const listener = (m: StreamMessage): void => {
    // Never twice, never out of order: a message already written by the backlog is skipped.
    if (m.seq <= last) return;
    last = m.seq;
    res.write(format(m));
  };
  state.streamListeners.add(listener);
  const beat = setInterval(() => res.write(': keep-alive\n\n'), HEARTBEAT_MS);
  const stop = (): void => {
    clearInterval(beat);
    state.streamListeners.delete(listener);
  };
  req.on('close', stop);
  res.on('close', stop);
}

/** Ends every open stream (close() of the deployment). */
export function closeStreams(state: State): void {
  state.streamListeners.clear();
}
