import type { Socket } from 'node:net';
import type { PlainRequest } from '../core/types.ts';

/** Connections a server has accepted, numbered from 1 (see PlainRequest.connection). */
export interface ConnectionCount {
  opened: number;
}

/**
 * One count for every server of the process: a sandbox's main and alternate listeners feed one
 * observer, so their connection numbers must compare (a retry at the other address is still a retry).
 */
export const PROCESS_CONNECTIONS: ConnectionCount = { opened: 0 };

const CONNECTION = Symbol('ncs.connection');
type Numbered = Socket & { [CONNECTION]?: { id: number; requests: number; acceptedAt: number } };

/**
 * Numbers a connection as the server accepts it (its `connection` event), stamped on `now` (the sandbox clock).
 * @example server.on('connection', (socket) => numberConnection(count, socket));
 */
export function numberConnection(count: ConnectionCount, socket: Socket, now: () => number = Date.now): void {
  (socket as Numbered)[CONNECTION] = { id: ++count.opened, requests: 0, acceptedAt: now() };
}

/**
 * What a request tells of its connection: its number, whether it is the connection's first request
 * (counted here, once per request), and the server's count read later, when the answer leaves.
 * Undefined for a connection the server did not number.
 * @example const connection = connectionOf(count, req.socket);
 */
export function connectionOf(count: ConnectionCount, socket: Socket): PlainRequest['connection'] {
  const numbered = (socket as Numbered)[CONNECTION];
  if (!numbered) return undefined;
  const first = ++numbered.requests === 1;
  return {
    id: numbered.id,
    first,
    opened: () => count.opened,
    ...(first ? { acceptedAt: numbered.acceptedAt } : {}),
  };
}
