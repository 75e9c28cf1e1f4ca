import type { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { connectionOf, numberConnection } from './connection-numbers.ts';

describe('connection numbers', () => {
  it('numbers connections as accepted and tells a connection its first request; the count is read late', () => {
    const count = { opened: 0 };
    const [a, b] = [{}, {}] as Socket[];
    if (!a || !b) throw new Error('two sockets');
    numberConnection(count, a);
    const first = connectionOf(count, a);
    expect(first).toMatchObject({ id: 1, first: true });
    expect(connectionOf(count, a)).toMatchObject({ id: 1, first: false });
    numberConnection(count, b);
    // Read when the answer of the first request leaves: connection 2 was accepted by then.
    expect(first?.opened()).toBe(2);
    expect(connectionOf(count, {} as Socket)).toBeUndefined();
  });
});
