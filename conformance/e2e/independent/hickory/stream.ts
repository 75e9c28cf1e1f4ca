// The public status stream: one sequence for the deployment, every message labelled `event: message` with
// its kind inside the JSON, resumable by ?cursor (wins) or Last-Event-ID, the whole backlog kept.
import type { ServerResponse } from 'node:http';
import type { State } from './state.ts';
import { ApiError, type Ctx, stamp } from './util.ts';

/** Appends a message to the backlog and sends it to every open stream. */
export function publish(state: State, type: string, payload: Record<string, unknown>): void {
  const id = ++state.stream.seq;
  const data = JSON.stringify({ type, sequence: id, at: stamp(state.options.timeOffsetMin), ...payload });
  const text = `id: ${id}\nevent: message\ndata: ${data}\n\n`;
  state.stream.backlog.push({ id, text });
  for (const client of state.stream.clients) client.write(text);
}

function resumeFrom(state: State, ctx: Ctx): number {
  const cursor = ctx.url.searchParams.get('cursor');
  const lastId = ctx.req.headers['last-event-id'];
  const raw = cursor ?? (typeof lastId === 'string' ? lastId.trim() : null);
  if (raw === null || raw === '') {
    if (cursor === '') throw new ApiError('invalid_request', 'cursor must be an integer of at least 0.');
    return state.options.streamFromStart ? 0 : -1;
  }
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(Number(raw))) {
    throw new ApiError(
      'invalid_request',
      `${cursor !== null ? 'cursor' : 'Last-Event-ID'} must be an integer of at least 0.`,
    );
  }
  return Number(raw);
}

/** GET /stream: without a cursor only new messages; with one, the backlog after it, then live. */
export function openStream(state: State, ctx: Ctx): void {
  const after = resumeFrom(state, ctx);
  const res: ServerResponse = ctx.res;
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
    'x-request-id': ctx.requestId,
  });
  res.write(`retry: 2000\n: hickory stream, version ${ctx.version}\n\n`);
  if (after >= 0) for (const m of state.stream.backlog) if (m.id > after) res.write(m.text);
  state.stream.clients.add(res);
  const beat = setInterval(() => res.write(': keep-alive\n\n'), 15_000);
  beat.unref();
  const done = () => {
    clearInterval(beat);
    state.stream.clients.delete(res);
  };
  if (state.options.streamMaxMs > 0) {
    const cut = setTimeout(() => res.end(), state.options.streamMaxMs);
    cut.unref();
    res.on('close', () => clearTimeout(cut));
  }
  res.on('close', done);
  res.on('error', done);
}
