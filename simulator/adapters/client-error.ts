import type { ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { PlainResponse } from '../core/types.ts';
import { writeRawResponse } from './node-http.ts';

/**
 * What the server does when node's parser gives up on a connection (`clientError`). Raw bytes on the
 * socket are an answer only when no answer is under way on it: with a pipelined request still being
 * answered, or an open stream, a raw 400 would land before that answer (which was then lost with the
 * closed socket) or inside its chunked body (a stream's client read an HTTP answer as a chunk). So:
 * - no answer under way, or the broken bytes are the body of the request being answered: the envelope;
 * - an answer not started yet for a complete request: it is written, with Connection: close, then the
 *   connection ends (the parser cannot go on: further bytes only report the error again);
 * - an answer already being written (a stream): the connection is cut, as node itself does.
 * @example server.on('clientError', (err, socket) => answerClientError(socket, () => core.reject(...)));
 */
export function answerClientError(socket: Duplex, refusal: () => PlainResponse): void {
  const answer = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (!answer || answer.writableEnded || !answer.req?.complete) {
    writeRawResponse(socket, refusal());
    return;
  }
  // Not paused: a client leaving must still be seen (node reports its end as this error again, and
  // the answer, a stream by then, is cut below).
  if (answer.headersSent) {
    socket.destroy();
    return;
  }
  answer.shouldKeepAlive = false;
}
