// What a standard client (the HTML standard's EventSource) holds as its last event ID while it reads a stream:
// every block's `id:` field sets it, one with data or not, and a reconnect sends it as Last-Event-ID. eventsource-
// parser hands over only the blocks with data, so a block of an `id:` alone (an opening `retry:` block carrying
// `id: 0`, a heartbeat written as an empty `id:`) is invisible there; this tracker sees the lines themselves.
import type { IdOnlyBlock } from './exchange.ts';

/**
 * A line reader for one stream that records each block without data whose `id:` changes the last event ID, with
 * the value it replaced (`start`: the Last-Event-ID the client sent, if any).
 * @example const feed = lastIdTracker('7', (b) => blocks.push(b)); feed('id: 0\n\n'); // { before: '7', id: '0', afterMessages: 0 }
 */
export function lastIdTracker(start: string | undefined, onChange: (block: IdOnlyBlock) => void) {
  let rest = '';
  let last = start;
  let id: string | undefined;
  let data = false;
  let messages = 0;
  const line = (l: string) => {
    if (l === '') {
      if (data) messages++;
      else if (id !== undefined && id !== last)
        onChange({ ...(last !== undefined ? { before: last } : {}), id, afterMessages: messages });
      if (id !== undefined) last = id;
      id = undefined;
      data = false;
      return;
    }
    if (l.startsWith(':')) return;
    const colon = l.indexOf(':');
    const field = colon < 0 ? l : l.slice(0, colon);
    const raw = colon < 0 ? '' : l.slice(colon + 1);
    const value = raw.startsWith(' ') ? raw.slice(1) : raw;
    if (field === 'data') data = true;
    else if (field === 'id' && !value.includes('\0')) id = value;
  };
  let first = true;
  return (chunk: string) => {
    rest += first ? chunk.replace(/^\uFEFF/, '') : chunk;
    first = false;
    // A CR at the end may be the first half of a CRLF: kept for the next chunk.
    const lines = rest.split(/\r\n|\r(?!$)|\n/);
    rest = lines.pop() ?? '';
    for (const l of lines) line(l);
  };
}
