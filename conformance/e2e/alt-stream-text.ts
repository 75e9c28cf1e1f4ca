import type { ServerResponse } from 'node:http';
import type { FurtherChoices } from './alt-further.ts';

/**
 * The status stream as ALT_G writes it (alt-further.ts `streamTextData`, `streamAwkwardChunks`): every
 * message's data one line of plain text naming the connection (the interface: "the payload of a message:
 * not shown"), `id:` after `data:` within a message, CRLF line ends, and the bytes sent in pieces cut at
 * awkward places: inside a multi-byte UTF-8 character and between CR and LF, several messages in one
 * piece. Any SSE reader must read it (the SSE format allows each of these).
 */

type Json = Record<string, unknown>;

/** One line of text for a message's JSON data, naming what it is about (with a `→`: two bytes and more in UTF-8). */
export function textOf(event: string, data: string): string {
  let json: Json;
  try {
    json = JSON.parse(data) as Json;
  } catch {
    return data;
  }
  const connection = json.connection as Json | undefined;
  const target = json.target as Json | undefined;
  const id = connection?.id ?? target?.id;
  if (typeof id === 'string')
    return `${event} → ${id} is ${String(connection?.state ?? 'changed')} «${String(connection?.scopeLabel ?? '')}» (${String(json.eventId ?? '')})`;
  const flat = Object.entries(json).map(([k, v]) => `${k}=${typeof v === 'object' ? JSON.stringify(v) : String(v)}`);
  return `${event} → ${flat.join(' ')}`;
}

/**
 * A rewriter of whole stream lines into this deployment's messages: a block is held until its blank line,
 * then written with `event:`, `data:`, `id:` in that order and CRLF line ends.
 * @example const rewrite = messageRewriter(choices); res.write(rewrite('id: 1\nevent: x\ndata: {}\n\n'));
 */
export function messageRewriter(f: FurtherChoices) {
  let block: string[] = [];
  const eol = f.streamAwkwardChunks ? '\r\n' : '\n';
  const write = (lines: string[]) => {
    const id = lines.filter((l) => l.startsWith('id:'));
    const event = lines.find((l) => l.startsWith('event:'))?.replace(/^event: ?/, '') ?? 'message';
    const rest = lines
      .filter((l) => !l.startsWith('id:'))
      .map((l) =>
        f.streamTextData && l.startsWith('data:') ? `data: ${textOf(event, l.replace(/^data: ?/, ''))}` : l,
      );
    const ordered = f.streamAwkwardChunks ? [...rest, ...id] : [...id, ...rest];
    return `${ordered.join(eol)}${eol}${eol}`;
  };
  return (lines: string): string => {
    let out = '';
    for (const line of lines.split('\n').slice(0, -1)) {
      if (line !== '') block.push(line);
      else if (block.length) {
        out += write(block);
        block = [];
      }
    }
    return out;
  };
}

/**
 * The stream's text as this deployment sends it: messages rewritten, and, with awkward chunks, written by
 * `awkwardWriter` (the proxy's own write then gets nothing).
 */
export function streamWriter(f: FurtherChoices | undefined, res: ServerResponse): (text: string) => string {
  if (!f) return (text) => text;
  const messages = messageRewriter(f);
  const send = f.streamAwkwardChunks ? awkwardWriter(res) : undefined;
  return (text) => {
    const out = messages(text);
    if (!send) return out;
    send(out);
    return '';
  };
}

/** Where this deployment cuts a piece of bytes: after the first byte of the first multi-byte character, and between the first CR and its LF. */
export function awkwardCuts(bytes: Buffer): number[] {
  const lead = bytes.findIndex((b) => b >= 0xc0);
  const cr = bytes.findIndex((b, i) => b === 0x0d && bytes[i + 1] === 0x0a);
  return [...new Set([lead + 1, cr + 1].filter((i) => i > 0 && i < bytes.length))].sort((a, b) => a - b);
}

/**
 * Writes a stream's text to `res` as this deployment does: what came within 20 ms gathered (several
 * messages a piece), each gathering sent in pieces cut by `awkwardCuts`, a few ms apart so they arrive apart.
 * @example const send = awkwardWriter(res); send('event: x\r\ndata: a → b\r\nid: 1\r\n\r\n');
 */
export function awkwardWriter(res: ServerResponse) {
  let pending: Buffer[] = [];
  let chain = Promise.resolve();
  let scheduled = false;
  const pause = () => new Promise((r) => setTimeout(r, 4));
  const flush = () => {
    scheduled = false;
    const bytes = Buffer.concat(pending);
    pending = [];
    chain = chain.then(async () => {
      let from = 0;
      for (const cut of [...awkwardCuts(bytes), bytes.length]) {
        if (res.destroyed) return;
        res.write(bytes.subarray(from, cut));
        from = cut;
        await pause();
      }
    });
  };
  return (text: string): void => {
    if (!text) return;
    pending.push(Buffer.from(text, 'utf8'));
    if (!scheduled) {
      scheduled = true;
      setTimeout(flush, 20);
    }
  };
}
