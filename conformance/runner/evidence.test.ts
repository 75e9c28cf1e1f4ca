import { describe, expect, it } from 'vitest';
import type { Exchange } from '../client/http-client.ts';
import { describeExchange } from './evidence.ts';

const answer = (text: string, contentType: string, over: Partial<Exchange> = {}): Exchange => ({
  method: 'GET',
  url: 'http://127.0.0.1/api/public/v1/stream',
  requestHeaders: {},
  status: 200,
  headers: { 'content-type': contentType },
  text,
  json: undefined,
  durationMs: 1,
  attempts: 1,
  ...over,
});

describe('an exchange described as evidence', () => {
  it('tells an event stream by its messages and numbers, not as a body that is not JSON', () => {
    const text = 'retry: 3000\n\nid: 4\ndata: {"a":1}\n\nid: 5\ndata: {}\n\n: ping\n\nid: 6\ndata: {}\n\n';
    expect(describeExchange(answer(text, 'text/event-stream'))).toBe(
      '200, an event stream: 3 messages read (id 4 to 6)',
    );
    expect(describeExchange(answer('retry: 3000\n\n', 'text/event-stream; charset=utf-8'))).toBe(
      '200, an event stream: no message read',
    );
    expect(describeExchange(answer('retry: 3000\n\n', 'text/plain'))).toMatch(/^200, body is not JSON/);
  });
});
