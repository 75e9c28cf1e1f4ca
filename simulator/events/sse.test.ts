import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { describe, expect, it } from 'vitest';
import { memoryFeeds as createFeedStore } from '../test-support/memory-streams.ts';
import { PUBLIC_FEED } from './feed.ts';
import {
  CursorError,
  encodeSseComment,
  encodeSseControl,
  encodeSseMessage,
  encodeSseRetry,
  parseCursor,
} from './sse.ts';

describe('SSE encoding', () => {
  it('writes id, event and one-line JSON data that a standard parser reads back', () => {
    const feeds = createFeedStore();
    const m = feeds.publish(PUBLIC_FEED, 'service.status', { text: 'line one\nline two\r\nthree', n: 1 });
    const frame = encodeSseMessage(m);
    expect(frame).toBe('id: 1\nevent: service.status\ndata: {"text":"line one\\nline two\\r\\nthree","n":1}\n\n');
    expect(encodeSseMessage(m)).toBe(frame);
    const got: EventSourceMessage[] = [];
    let retry = 0;
    const comments: string[] = [];
    const parser = createParser({
      onEvent: (e) => got.push(e),
      onRetry: (r) => (retry = r),
      onComment: (c) => comments.push(c),
    });
    parser.feed(
      encodeSseRetry(3000) +
        encodeSseComment('heartbeat\nid: 5') +
        frame +
        encodeSseControl('stream.reset', { reason: 'cursor_expired' }),
    );
    expect(retry).toBe(3000);
    expect(comments).toEqual(['heartbeat id: 5']);
    expect(got).toEqual([
      { id: '1', event: 'service.status', data: JSON.stringify(m.data) },
      { id: undefined, event: 'stream.reset', data: '{"reason":"cursor_expired"}' },
    ]);
  });
});

describe('parseCursor', () => {
  it('reads the Last-Event-ID header or ?cursor, the header winning when both are sent', () => {
    expect(parseCursor(undefined, undefined)).toEqual({ cursor: undefined, source: 'none' });
    expect(parseCursor('41', undefined)).toEqual({ cursor: 41, source: 'header' });
    expect(parseCursor(undefined, '0')).toEqual({ cursor: 0, source: 'query' });
    expect(parseCursor('41', '7')).toEqual({ cursor: 41, source: 'header' });
    expect(parseCursor(' 12 ', undefined)).toEqual({ cursor: 12, source: 'header' });
    expect(parseCursor('', '7')).toEqual({ cursor: 7, source: 'query' });
  });
  it.each([
    ['-1', undefined],
    ['abc', undefined],
    ['1.5', undefined],
    ['1e3', undefined],
    ['9007199254740993', undefined],
    [undefined, ''],
    [undefined, '-3'],
    [undefined, ' 4'],
    [undefined, '0x10'],
    ['5', 'x'],
    ['x', '5'],
  ])('refuses header %j / cursor %j', (h, q) => {
    expect(() => parseCursor(h, q)).toThrow(CursorError);
  });
  it('names the parameter and refuses a repeated cursor', () => {
    expect(() => parseCursor('nope', undefined)).toThrow(/Last-Event-ID must be .* integer >= 0 \(got "nope"\)/);
    expect(() => parseCursor(undefined, ['1', '2'])).toThrow(/only once/);
    try {
      parseCursor(undefined, 'x'.repeat(200));
    } catch (e) {
      expect((e as CursorError).source).toBe('cursor');
      expect((e as Error).message.length).toBeLessThan(150);
    }
  });
});
