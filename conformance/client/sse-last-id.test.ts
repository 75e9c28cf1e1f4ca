import { describe, expect, it } from 'vitest';
import type { IdOnlyBlock } from './exchange.ts';
import { lastIdTracker } from './sse-last-id.ts';

const read = (start: string | undefined, ...chunks: string[]) => {
  const blocks: IdOnlyBlock[] = [];
  const feed = lastIdTracker(start, (b) => blocks.push(b));
  for (const c of chunks) feed(c);
  return blocks;
};

describe('lastIdTracker', () => {
  it('records blocks of an id alone that change the last event id, with what they replaced', () => {
    expect(read('7', 'retry: 3000\nid: 0\n\n', 'id: 8\ndata: x\n\n')).toEqual([
      { before: '7', id: '0', afterMessages: 0 },
    ]);
    expect(read(undefined, 'id: 1\ndata: a\n\n', 'id:\n\n')).toEqual([{ before: '1', id: '', afterMessages: 1 }]);
  });

  it('ignores comments, blocks repeating the last id, messages, and ids with NUL, over any line ending and chunking', () => {
    expect(read(undefined, ': hi\r\n\r\nid: 1\r\ndata: a\r\n\r', '\nid: 1\r\n\r\n', 'id: 2\0\n\n')).toEqual([]);
    // CR alone, split across chunks.
    expect(read('4', 'id: 5\rdata: b\r\r', 'id: 9\r', '\r', 'data: c\r\r')).toEqual([
      { before: '5', id: '9', afterMessages: 1 },
    ]);
    // An opening id before any message and without a resume position sets it for the first time: recorded, no before.
    expect(read(undefined, '\uFEFFid: 0\n\n')).toEqual([{ id: '0', afterMessages: 0 }]);
  });
});
