import { describe, expect, it } from 'vitest';
import { fromFetchRequest } from './msw.ts';

// Hardening round 4: `?__proto__=1&__proto__=2` once made the query object's prototype an array, and
// the validator's walk over it threw (a 500). Both adapters now build the query without a prototype.
describe('query parameters named like Object.prototype members (MSW adapter)', () => {
  it('keeps __proto__ as a plain parameter, never as the prototype', async () => {
    const plain = await fromFetchRequest(new Request('http://x.test/api/public/v1/providers?__proto__=1&__proto__=2'));
    expect(Object.getPrototypeOf(plain.query)).toBeNull();
    expect(Object.keys(plain.query)).toEqual(['__proto__']);
    expect(plain.query.__proto__).toEqual(['1', '2']);
  });
});
