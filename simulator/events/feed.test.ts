import { describe, expect, it } from 'vitest';
import { memoryFeeds } from '../test-support/memory-streams.ts';
import { messageDataJson, PUBLIC_FEED, tenantFeed } from './feed.ts';

describe('feed names and message JSON', () => {
  it('names a tenant feed apart from the public one', () => {
    expect(tenantFeed('harbour-kitchens')).toBe('tenant:harbour-kitchens');
    expect(tenantFeed(PUBLIC_FEED)).not.toBe(PUBLIC_FEED);
  });

  it('serialises each message once, when first read', () => {
    const feeds = memoryFeeds({ retention: 5 });
    let calls = 0;
    const m = feeds.publish(PUBLIC_FEED, 'x.y', {
      toJSON: () => {
        calls++;
        return { a: 1 };
      },
    });
    expect(calls).toBe(0);
    expect(messageDataJson(m)).toBe('{"a":1}');
    expect(messageDataJson(m)).toBe('{"a":1}');
    expect(calls).toBe(1);
  });
});
