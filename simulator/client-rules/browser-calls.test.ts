import { describe, expect, it } from 'vitest';
import { browserFetchMetadata } from './browser-calls.ts';

describe('a browser told by the Fetch Metadata it sends', () => {
  it('takes Sec-Fetch-Site, Sec-Fetch-Dest or a navigation, not Sec-Fetch-Mode alone (Node and Deno send cors)', () => {
    expect(browserFetchMetadata({ 'sec-fetch-mode': 'cors' })).toBe(false);
    expect(browserFetchMetadata({})).toBe(false);
    expect(browserFetchMetadata({ 'sec-fetch-mode': 'cors', 'sec-fetch-site': 'cross-site' })).toBe(true);
    expect(browserFetchMetadata({ 'sec-fetch-dest': 'iframe' })).toBe(true);
    expect(browserFetchMetadata({ 'sec-fetch-mode': 'navigate' })).toBe(true);
  });
});
