import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Core } from '../core/create-core.ts';
import type { PlainRequest, PlainResponse } from '../core/types.ts';

export interface NodeAdapterOptions {
  /** Stop reading a body past this many bytes; the core answers 400 (default 1 MiB). */
  maxBodyBytes?: number;
}

/** node:http request -> plain request (translation only). */
export async function fromNodeRequest(req: IncomingMessage, maxBodyBytes: number): Promise<PlainRequest> {
  const raw = req.url ?? '/';
  const q = raw.indexOf('?');
  const path = q === -1 ? raw : raw.slice(0, q);
  const query: Record<string, string | string[]> = {};
  if (q !== -1) {
    for (const [k, v] of new URLSearchParams(raw.slice(q + 1))) {
      const prev = query[k];
      query[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
    }
  }
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
  const plain: PlainRequest = { method: (req.method ?? 'GET').toUpperCase(), path, query, headers };
  if (plain.method === 'GET' || plain.method === 'HEAD') return plain;
  return readBody(req, plain, maxBodyBytes);
}

// Event listeners rather than `for await`: no async iterator and promise per chunk on every POST.
function readBody(req: IncomingMessage, plain: PlainRequest, maxBodyBytes: number): Promise<PlainRequest> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (err?: Error) => {
      if (settled) return;
      settled = true;
      req.off('data', onData);
      if (err) return reject(err);
      if (!plain.bodyTooLarge && size > 0) plain.body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
      resolve(plain);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBodyBytes) {
        // Stop keeping it, let the rest drain unread, and answer 400 at once.
        plain.bodyTooLarge = true;
        req.resume();
        return settle();
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => settle());
    req.once('error', (err) => settle(err));
    req.once('close', () => {
      if (!settled) settle(new Error('the request closed before its body ended'));
    });
  });
}

/** Writes a plain response; streams are written as they come and stopped when the client goes. */
export function writeNodeResponse(res: ServerResponse, out: PlainResponse, onStreamOpen?: (stop: () => void) => () => void): void {
  if (!out.stream) {
    // A known length: headers and body leave in one write, without chunked framing.
    res.writeHead(out.status, out.body === undefined ? out.headers : { ...out.headers, 'content-length': Buffer.byteLength(out.body) });
    res.end(out.body);
    return;
  }
  res.writeHead(out.status, out.headers);
  res.flushHeaders();
  let ended = false;
  const stop = out.stream.open({
    write(chunk) {
      if (ended) return false;
      return res.write(chunk);
    },
    end() {
      if (ended) return;
      ended = true;
      res.end();
    },
  });
  const untrack = onStreamOpen?.(() => {
    stop();
    if (!ended) {
      ended = true;
      res.end();
    }
  });
  res.on('close', () => {
    ended = true;
    stop();
    untrack?.();
  });
}

/**
 * A node:http request listener around the core.
 * @example http.createServer(createNodeListener(core)).listen(4010, '127.0.0.1');
 */
export function createNodeListener(core: Core, opts: NodeAdapterOptions & { onStreamOpen?: (stop: () => void) => () => void } = {}) {
  const max = opts.maxBodyBytes ?? 1024 * 1024;
  return (req: IncomingMessage, res: ServerResponse) => {
    fromNodeRequest(req, max)
      .then((plain) => core.handle(plain))
      .then((out) => writeNodeResponse(res, out, opts.onStreamOpen))
      .catch(() => {
        // Only a broken socket gets here (the core never throws); nothing left to answer.
        res.destroy();
      });
  };
}
