// The status stream as a PostgreSQL LISTEN/NOTIFY fan-out: every committed change is NOTIFYed on one
// channel, numbered by a global sequence (a bigserial), kept in an outbox table, and relayed to every open
// SSE listener. Resumption replays the outbox after the number read. Messages carry no tenant data (the
// stream is public): the connection's id, connector, environment and state only.
import { ApiError, type Call } from './call.ts';
import { type Connection, type State, stamp } from './state.ts';

/** linden's message kinds, named after the row trigger that raises them. */
export const STREAM_KINDS = ['connection_inserted', 'connection_state_changed'] as const;
const HEARTBEAT_MS = 15_000;
const MAX_BACKLOG = 50_000;

export function notify(state: State, kind: (typeof STREAM_KINDS)[number], c: Connection): void {
  const seq = (state.stream.messages.at(-1)?.seq ?? 0) + 1;
  const payload = {
    seq,
    kind,
    at: stamp(state),
    channel: 'ncs_connections',
    connection: { id: c.id, connectorId: c.connectorId, environment: c.environment, state: c.state },
  };
  const text = `id: ${seq}\nevent: ${kind}\ndata: ${JSON.stringify(payload)}\n\n`;
  state.stream.messages.push({ seq, kind, text });
  if (state.stream.messages.length > MAX_BACKLOG) state.stream.messages.shift();
  for (const res of state.stream.listeners) res.write(text);
}

/** "last number read": a non-negative integer in decimal digits, else 400. */
function lastRead(raw: string | undefined, name: string): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d{1,15}$/.test(raw.trim())) {
    throw new ApiError(
      'invalid_request',
      `${name} must be an integer of at least 0`,
      `${name} is the number of the last message read`,
    );
  }
  return Number(raw.trim());
}

/** GET /stream. Last-Event-ID (what a reconnecting EventSource sends) wins over ?cursor when both come. */
export function openStream(call: Call): void {
  const { req, res, state } = call;
  const header = req.headers['last-event-id'];
  const fromHeader = lastRead(Array.isArray(header) ? header[0] : header, 'Last-Event-ID');
  const cursorParam = call.url.searchParams.get('cursor');
  const fromCursor = lastRead(cursorParam ?? undefined, 'cursor');
  const after = fromHeader ?? fromCursor;
  const head = state.stream.messages.at(-1)?.seq ?? 0;
  if (state.options.refuseCursorAhead && after !== undefined && after > head) {
    throw new ApiError(
      'invalid_request',
      'no message with this number was sent yet',
      `the newest message is number ${head}`,
    );
  }
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    'x-accel-buffering': 'no',
    connection: 'keep-alive',
    ...call.headers,
  });
  res.write(': linden status stream\nretry: 2000\n\n');
  if (after !== undefined) {
    for (const m of state.stream.messages) if (m.seq > after) res.write(m.text);
  }
  state.stream.listeners.add(res);
  const beat = setInterval(() => res.write(': keep-alive\n\n'), HEARTBEAT_MS);
  const done = () => {
    clearInterval(beat);
    state.stream.listeners.delete(res);
  };
  if (state.options.streamMaxMs > 0) {
    const cut = setTimeout(() => res.end(), state.options.streamMaxMs);
    res.on('close', () => clearTimeout(cut));
  }
  req.on('close', done);
  res.on('close', done);
}

export function closeStreams(state: State): void {
  for (const res of state.stream.listeners) res.end();
  state.stream.listeners.clear();
}
