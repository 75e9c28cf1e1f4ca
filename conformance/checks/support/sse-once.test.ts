import { describe, expect, it } from 'vitest';
import { disagreements, repeatsWithin } from './sse-once.ts';

const about = (id: string, n: number, event = 'connection.created') => ({
  id: String(n),
  event,
  data: JSON.stringify({ connection: { id, state: 'pending' } }),
});

describe('repeatsWithin', () => {
  it('finds a message about a kit connection sent again under another number', () => {
    const events = [about('con_a1', 4), about('con_b2', 5), { ...about('con_a1', 6) }];
    expect(repeatsWithin(events, ['con_a1', 'con_b2'])).toEqual([expect.stringMatching(/numbered 4 came again as 6/)]);
  });

  it('leaves alone messages about other connections, short data and distinct events', () => {
    const events = [
      about('con_x9', 1),
      about('con_x9', 2),
      { id: '3', event: 'ping', data: '{}' },
      { id: '4', event: 'ping', data: '{}' },
      about('con_a1', 5),
      about('con_a1', 6, 'connection.state_changed'),
    ];
    expect(repeatsWithin(events, ['con_a1'])).toEqual([]);
  });
});

describe('disagreements', () => {
  const live = [about('con_a1', 7), about('con_b2', 8), about('con_c3', 9)];

  it('holds for the same messages under the same numbers, and for a read that goes further', () => {
    expect(disagreements(live, [...live.slice(1), about('con_d4', 10)], { complete: true, from: 7 })).toEqual([]);
  });

  it('finds a message renumbered, a number reused and a message left out within the range read', () => {
    expect(disagreements(live, [{ ...about('con_b2', 9) }])).toEqual([
      expect.stringMatching(/message 8 .* numbered 9/),
      expect.stringMatching(/number 9 carried/),
    ]);
    expect(disagreements(live, [about('con_c3', 9)], { complete: true, from: 7 })).toEqual([
      expect.stringMatching(/message 8 .* missing/),
    ]);
  });

  it('does not ask for messages outside the range the other read covered', () => {
    expect(disagreements(live, [about('con_b2', 8)], { complete: true, from: 7 })).toEqual([]);
  });
});
