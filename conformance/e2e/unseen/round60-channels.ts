import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { P } from './proxy-helpers.ts';

/**
 * Round 60, part 4: Server-Sent Events framing as the SSE standard reads it. Each stream below is what a
 * writer a real team shipped puts on the wire; a client parsing by the standard (line endings CR, LF or CRLF,
 * fields up to the first colon, one leading space stripped, an event dispatched at a blank line, the last
 * event id kept until the next `id:`) then sees numbers, single delivery or resumption break.
 */
const isStream = (c: ProxyCall) => c.method === 'GET' && c.path === P('/stream');
const resuming = (c: ProxyCall) => Boolean(c.headers['last-event-id'] || c.search.has('cursor'));
const ID_LINE = /^id: ?(\d+)$/gm;

/** Per-stream state (one proxied stream = one call object). */
const states = new WeakMap<ProxyCall, Record<string, unknown>>();
const stateOf = (c: ProxyCall) => {
  const s = states.get(c) ?? {};
  states.set(c, s);
  return s;
};

export const ROUND60_CHANNELS: UnseenViolation[] = [
  {
    name: 'stream-messages-each-prefixed-with-bom',
    statement:
      'Events: Every message carries a consecutive number and arrives exactly once (each message written with a UTF-8 byte order mark before its id line)',
    stream(c, lines) {
      // Every frame is encoded by a fresh UTF-8 encoder that emits its preamble (BOM) per buffer. The standard
      // strips a BOM only at the very start of the stream; mid-stream it makes the field name "\uFEFFid",
      // which is ignored, so each message keeps the id of nothing (or of the one before).
      if (!isStream(c)) return lines;
      return lines.replace(/^(id|retry):/gm, '\uFEFF$1:');
    },
  },
  {
    name: 'stream-ids-nul-terminated',
    statement:
      'Events: Every message carries a consecutive number; the client resumes without gaps by sending Last-Event-ID (last number read)',
    stream(c, lines) {
      // The id is copied out of a C buffer with its terminating NUL. The standard ignores an id field that
      // contains U+0000, so no message sets the last event id and a reconnect sends none.
      if (!isStream(c)) return lines;
      return lines.replace(ID_LINE, 'id: $1\0');
    },
  },
  {
    name: 'stream-ids-zero-padded-resumed-as-octal',
    statement:
      'Events: After an interruption, the client resumes without gaps by sending Last-Event-ID or the query parameter cursor (last number read); every message arrives exactly once',
    request(c) {
      // Ids are zero-padded so they sort as strings in the store; the resume path parses Last-Event-ID with a
      // legacy parseInt that reads a leading zero as octal ("000012" -> 10), so messages 11 and 12 come again.
      const id = c.headers['last-event-id'];
      if (isStream(c) && id && /^0\d+$/.test(id)) {
        const octal = Number.parseInt(id, 8);
        c.headers['last-event-id'] = String(Number.isNaN(octal) ? 0 : octal);
      }
      return undefined;
    },
    stream(c, lines) {
      if (!isStream(c)) return lines;
      return lines.replace(ID_LINE, (_m, n: string) => `id: ${n.padStart(6, '0')}`);
    },
  },
  {
    name: 'stream-ids-space-padded-to-width-three',
    statement: 'Events: Every message carries a consecutive number (the id field of each message)',
    stream(c, lines) {
      // The frame is formatted with "id: %3d": the standard strips only one space after the colon, so the
      // client's last event id is "  7", not a number, and it sends that back on reconnect.
      if (!isStream(c)) return lines;
      return lines.replace(ID_LINE, (_m, n: string) => `id: ${n.padStart(3, ' ')}`);
    },
  },
  {
    name: 'stream-long-data-flushed-as-two-events',
    statement:
      'Events: Every message carries a consecutive number and arrives exactly once (a message with a long payload)',
    stream(c, lines) {
      // The writer flushes long payloads in 120-character frames and ends each frame with a blank line; by the
      // standard that dispatches the first half as an event, then the rest as a second event with the same id.
      if (!isStream(c)) return lines;
      return lines.replace(
        /^data: ?(.{160,})$/gm,
        (_m, d: string) => `data: ${d.slice(0, 120)}\n\ndata: ${d.slice(120)}`,
      );
    },
  },
  {
    name: 'stream-crlf-doubled-with-id-after-data',
    statement: 'Events: Every message carries a consecutive number (a client parsing CR, LF and CRLF line endings)',
    stream(c, lines) {
      // Fields are written in the record's insertion order (event, data, id), each with "\r\n", onto a
      // text-mode stream that turns "\n" into "\r\n" again. "\r\r\n" is a line end followed by a blank line,
      // so the data is dispatched before its id line is read: each message carries the previous number.
      if (!isStream(c)) return lines;
      const blocks = lines.split('\n\n').map((block) => {
        const rows = block.split('\n');
        const at = rows.findIndex((r) => /^id:/.test(r));
        if (at < 0 || !rows.some((r) => r.startsWith('data:'))) return block;
        const [id] = rows.splice(at, 1);
        return [...rows, id].join('\n');
      });
      return blocks.join('\n\n').replaceAll('\n', '\r\r\n');
    },
  },
  {
    name: 'resumed-backlog-last-message-lacks-blank-line',
    statement:
      'Events: After an interruption, the client resumes without gaps by sending Last-Event-ID or the query parameter cursor (last number read)',
    stream(c, lines) {
      // The backlog is written as frames.join("\n\n") without a final separator: the last replayed message has
      // no blank line, so by the standard it merges with the next frame and is dispatched under its number.
      if (!isStream(c) || !resuming(c)) return lines;
      const s = stateOf(c);
      if (s.done || !/^id:/m.test(lines)) return lines;
      s.done = true;
      return lines.endsWith('\n\n') ? lines.slice(0, -1) : lines;
    },
  },
  {
    name: 'stream-held-until-heartbeat',
    statement: 'Events: GET /api/public/v1/stream delivers state changes continuously as Server-Sent Events',
    stream(c, lines) {
      // A compression layer in front of the stream flushes only when the heartbeat timer writes: messages wait
      // in its buffer for up to 15 seconds.
      if (!isStream(c)) return lines;
      const s = stateOf(c);
      const held = (s.held as string | undefined) ?? '';
      if (/^:/m.test(lines)) {
        s.held = '';
        return held + lines;
      }
      if (!held && !/^id:/m.test(lines)) return lines;
      s.held = held + lines;
      return '';
    },
  },
  {
    name: 'stream-retry-block-carries-id-zero',
    statement:
      'Events: After an interruption, the client resumes without gaps by sending Last-Event-ID or the query parameter cursor (last number read) (a resumed stream)',
    stream(c, lines) {
      // The opening block is rendered by the message template, which always writes the stream's start id; that
      // is 0 instead of the resume position, so a client resumed at N resets its last event id to 0 and a cut
      // before the next message makes it replay the whole feed.
      if (!isStream(c) || !resuming(c)) return lines;
      return lines.replace(/^retry: ?(\d+)\n/m, 'retry: $1\nid: 0\n');
    },
  },
  {
    name: 'stream-heartbeat-as-empty-id-block',
    statement:
      'Events: After an interruption, the client resumes without gaps by sending Last-Event-ID (last number read) (an interruption after a heartbeat)',
    stream(c, lines) {
      // The keep-alive goes through the message writer with no message: "id: ${last ?? ''}" where `last` is
      // not in scope of the timer, so it writes "id: " and a blank line, which by the standard clears the last
      // event id: a reconnect after a heartbeat sends no Last-Event-ID and loses what came meanwhile.
      if (!isStream(c)) return lines;
      return lines.replace(/^: ?heartbeat[^\n]*\n/gm, 'id: \n');
    },
  },
];
