import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { CoreHandler, PlainRequest, PlainResponse } from '../core/types.ts';
import { type ConnectionCount, connectionOf } from './connection-numbers.ts';
import { checkFraming } from './framing.ts';
import { checkHost } from './host-header.ts';
import { exchangeClosed, NodeExchange, NodeStreamSink, type OpenStreams, sinkClosed } from './node-exchange.ts';

export interface NodeAdapterOptions {
  /** Stop reading a body past this many bytes; the core answers 400 (default 1 MiB). */
  maxBodyBytes?: number;
  /**
   * The public origin of this listener (OAuth issuer and metadata), from configuration: never taken
   * from the Host header, so a shared sandbox cannot be made to advertise another issuer.
   */
  origin?: () => string | undefined;
}

/** node:http request -> plain request (translation only); a request without a body to read is returned at once. */
export function fromNodeRequest(
  req: IncomingMessage,
  maxBodyBytes: number,
  origin?: string,
): PlainRequest | Promise<PlainRequest> {
  // Absolute-form (`GET http://host/path`, RFC 9112 3.2.2: a server must accept it): the path is what
  // is routed; the authority is ignored like the Host header (the origin comes from configuration).
  const target = req.url ?? '/';
  const raw = target.charCodeAt(0) === 47 /* / */ ? target : target.replace(/^https?:\/\/[^/?#]*/i, '') || '/';
  const q = raw.indexOf('?');
  // `http://host?x` has an empty path: it is `/` (RFC 9112 3.2.2, as for `http://host`).
  const path = (q === -1 ? raw : raw.slice(0, q)) || '/';
  // No prototype: a parameter named `__proto__` is a parameter like any other, never the object's prototype.
  const query: Record<string, string | string[]> = Object.create(null);
  if (q !== -1) {
    for (const [k, v] of new URLSearchParams(raw.slice(q + 1))) {
      const prev = query[k];
      query[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
    }
  }
  const headers: Record<string, string> = {};
  const incoming = req.headers;
  for (const k in incoming) {
    const v = incoming[k];
    if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
  }
  // node keeps only the first of duplicated Authorization or Content-Type headers; hand the core all
  // of them (joined like any repeated header) so it sees the ambiguity instead of a silent pick.
  const raws = req.rawHeaders;
  for (let i = 0; i < raws.length; i += 2) {
    // By length first: lower-casing every raw name made a string per header of every request.
    const len = raws[i]?.length;
    if (len !== 13 && len !== 12) continue;
    const name = raws[i]?.toLowerCase();
    if ((name === 'authorization' || name === 'content-type') && headers[name] !== raws[i + 1]) {
      const all = raws.filter((_, j) => j % 2 === 1 && raws[j - 1]?.toLowerCase() === name);
      if (all.length > 1) headers[name] = all.join(', ');
    }
  }
  const plain: PlainRequest = { method: (req.method ?? 'GET').toUpperCase(), path, query, headers };
  // A body announced larger than accepted is refused at once, not after waiting for bytes never sent.
  if (Number(headers['content-length']) > maxBodyBytes) plain.bodyTooLarge = true;
  if (origin) plain.origin = origin;
  const address = req.socket.remoteAddress;
  if (address) plain.clientAddress = address;
  if (plain.method === 'GET' || plain.method === 'HEAD' || plain.bodyTooLarge) return plain;
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
      if (!plain.bodyTooLarge && size > 0) plain.body = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
      resolve(plain);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBodyBytes) {
        // Stop reading: the listener answers 400 and closes the connection.
        plain.bodyTooLarge = true;
        req.pause();
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
export function writeNodeResponse(
  res: ServerResponse,
  out: PlainResponse,
  open?: OpenStreams,
  draining?: () => boolean,
  exchange?: NodeExchange,
): void {
  // Shutting down: tell the client this connection ends after this answer (node then closes it).
  if (draining?.()) out.headers.connection = 'close';
  if (out.abort) {
    res.destroy();
    return;
  }
  if (!out.stream) {
    const body = out.body ?? '';
    // A HEAD answer has no body but announces the length of the GET's (set by the core).
    if (out.body !== undefined || out.headers['content-length'] === undefined)
      out.headers['content-length'] = String(Buffer.byteLength(body));
    res.writeHead(out.status, out.headers);
    res.end(body);
    return;
  }
  res.writeHead(out.status, out.headers);
  res.flushHeaders();
  const sink = new NodeStreamSink(res);
  sink.stopSource = out.stream.open(sink);
  sink.open = open;
  open?.add(sink);
  // The listener's exchange already listens for 'close' and tells the sink; alone, the sink listens.
  if (exchange) exchange.sink = sink;
  // `on`, not `once`: 'close' comes once anyway, and once() adds a wrapper and its state per stream.
  else res.on('close', sinkClosed);
}

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
};

/** Writes a plain response straight onto a socket the HTTP parser gave up on, then closes it. */
export function writeRawResponse(socket: Duplex, out: PlainResponse): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const body = out.body ?? '';
  const head = [
    `HTTP/1.1 ${out.status} ${REASONS[out.status] ?? 'Error'}`,
    ...Object.entries({ ...out.headers, 'content-length': String(Buffer.byteLength(body)), connection: 'close' }).map(
      ([k, v]) => `${k}: ${v}`,
    ),
  ];
  // Close both ways once written: a client that never reads or closes must not hold the descriptor.
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`, () => socket.destroy());
}

/** What the transport tells the client when node's parser rejects a request before the core sees it. */
export function describeClientError(err: NodeJS.ErrnoException): string {
  switch (err.code) {
    case 'HPE_HEADER_OVERFLOW':
      return 'The request headers are larger than this deployment accepts.';
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return 'The request was not completed in time.';
    case 'HPE_INVALID_METHOD':
      return 'The request method is not valid HTTP.';
    default:
      return 'The request is not valid HTTP.';
  }
}

/** How much of a refused body is read and dropped after the answer before the connection is cut. */
export const DISCARD_MAX_BYTES = 64 * 1024 * 1024;
/** How long a refused body may pause after the answer before the connection is cut, ms. */
export const DISCARD_IDLE_MS = 500;

/**
 * Reads and drops the rest of a refused body, then closes the connection. Node ends a
 * `Connection: close` answer by closing the socket as soon as the answer is written; with the
 * client's body still arriving, that close sends a TCP reset, and a client still uploading (undici
 * sending 20 MiB) loses the answer it was sent. So the answer goes out with a FIN, the rest of the
 * body is read (bounded by bytes and by a pause) and dropped, and only then is the socket closed.
 * @example if (plain.bodyTooLarge) discardRestOfBody(req);
 */
export function discardRestOfBody(req: IncomingMessage, maxBytes = DISCARD_MAX_BYTES, idleMs = DISCARD_IDLE_MS): void {
  const socket = req.socket as IncomingMessage['socket'] & { destroySoon?: () => void };
  const closeAfterAnswer = socket.destroySoon?.bind(socket);
  if (!closeAfterAnswer) return;
  let left = maxBytes;
  let bodyDone = req.complete;
  let idle: NodeJS.Timeout | undefined;
  const cut = () => socket.destroy();
  const finish = () => {
    clearTimeout(idle);
    closeAfterAnswer();
  };
  req.on('data', (chunk: Buffer) => {
    left -= chunk.length;
    if (left < 0) cut();
    else idle?.refresh();
  });
  req.once('end', () => {
    bodyDone = true;
    if (idle) finish();
  });
  socket.once('close', () => clearTimeout(idle));
  req.resume();
  // node calls destroySoon() once a `Connection: close` answer is written.
  socket.destroySoon = () => {
    if (bodyDone) return finish();
    socket.end();
    idle = setTimeout(cut, idleMs);
  };
}

/**
 * A node:http request listener around the core.
 * @example http.createServer(createNodeListener(core)).listen(4010, '127.0.0.1');
 */
export function createNodeListener(
  core: CoreHandler,
  opts: NodeAdapterOptions & {
    /** Where open streams are kept while open (the server stops them at shutdown). */
    openStreams?: OpenStreams;
    /** True once the server is shutting down: answers carry Connection: close. */
    draining?: () => boolean;
    /** The server's connection count, when it numbers its connections (numberConnection). */
    connections?: ConnectionCount;
  } = {},
) {
  const max = opts.maxBodyBytes ?? 1024 * 1024;
  const count = opts.connections;
  async function answer(req: IncomingMessage, res: ServerResponse, exchange: NodeExchange) {
    try {
      const read = fromNodeRequest(req, max, opts.origin?.());
      const plain = read instanceof Promise ? await read : read;
      // The connection closed before the answer was complete: the client gave up on this call.
      plain.clientGone = exchange;
      const connection = count && connectionOf(count, req.socket);
      if (connection) plain.connection = connection;
      const out = await core.handle(plain);
      if (plain.bodyTooLarge) {
        // Answer, then close the connection once the rest of the body has been read and dropped.
        out.headers.connection = 'close';
        discardRestOfBody(req);
      }
      writeNodeResponse(res, out, opts.openStreams, opts.draining, exchange);
    } catch {
      // Only a broken socket gets here (the core never throws); nothing left to answer.
      res.destroy();
    }
  }
  return (req: IncomingMessage, res: ServerResponse) => {
    const hostProblem = checkHost(req);
    const framing = hostProblem ? undefined : checkFraming(req);
    if (hostProblem || framing) {
      const out = framing
        ? core.reject('invalid_request', framing.detail, { hint: framing.hint })
        : core.reject('invalid_request', hostProblem ?? '');
      out.headers.connection = 'close';
      writeNodeResponse(res, out);
      return;
    }
    const exchange = new NodeExchange(res);
    res.on('close', exchangeClosed);
    void answer(req, res, exchange);
  };
}
