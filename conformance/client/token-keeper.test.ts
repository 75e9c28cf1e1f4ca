import { describe, expect, it } from 'vitest';
import { MIN_AGE_FOR_RENEWAL_MS, tokenKeeper } from './token-keeper.ts';

const clock = () => {
  let t = 1_000_000;
  return {
    now: () => t,
    advance: (ms: number) => {
      t += ms;
    },
  };
};
const issuer = (expiresIn?: number) => {
  let n = 0;
  return {
    renew: async () => ({ accessToken: `t${++n}`, ...(expiresIn !== undefined ? { expiresIn } : {}) }),
    count: () => n,
  };
};

describe('the run token keeper', () => {
  it('renews once 80 % of the stated lifetime has passed, not before, and reports each new token', async () => {
    const c = clock();
    const i = issuer(30);
    const seen: string[] = [];
    const k = tokenKeeper({ accessToken: 't0', expiresIn: 30 }, i.renew, (t) => seen.push(t), c.now);
    c.advance(23_000);
    expect(await k.fresh()).toBe('t0');
    c.advance(1_000);
    expect(await k.fresh()).toBe('t1');
    expect(await k.fresh()).toBe('t1');
    expect(seen).toEqual(['t1']);
  });

  it('asks the token endpoint once for calls renewing at the same moment', async () => {
    const c = clock();
    const i = issuer(30);
    const k = tokenKeeper({ accessToken: 't0', expiresIn: 30 }, i.renew, () => {}, c.now);
    c.advance(25_000);
    expect(await Promise.all([k.fresh(), k.fresh(), k.fresh()])).toEqual(['t1', 't1', 't1']);
    expect(i.count()).toBe(1);
  });

  it('gives every call refused while a renewal is under way the token it brings', async () => {
    const c = clock();
    let release: (() => void) | undefined;
    let n = 0;
    const slow = () =>
      new Promise<{ accessToken: string; expiresIn: number }>((resolve) => {
        release = () => resolve({ accessToken: `t${++n}`, expiresIn: 3 });
      });
    const k = tokenKeeper({ accessToken: 't0', expiresIn: 3 }, slow, () => {}, c.now);
    c.advance(2_300);
    // Three calls sent with t0 come back 401 before the token endpoint has answered the first renewal.
    const waiting = [k.afterUnauthorized('t0'), k.afterUnauthorized('t0'), k.afterUnauthorized('t0')];
    release?.();
    expect(await Promise.all(waiting)).toEqual(['t1', 't1', 't1']);
    expect(n).toBe(1);
  });

  it('takes a 401 to a young token as the answer to the call, not as an expiry', async () => {
    const c = clock();
    const i = issuer();
    const k = tokenKeeper({ accessToken: 't0' }, i.renew, () => {}, c.now);
    c.advance(MIN_AGE_FOR_RENEWAL_MS - 1);
    expect(await k.afterUnauthorized('t0')).toBeUndefined();
    expect(i.count()).toBe(0);
  });

  it('renews an old token without a stated lifetime after a 401, once per token', async () => {
    const c = clock();
    const i = issuer();
    const k = tokenKeeper({ accessToken: 't0' }, i.renew, () => {}, c.now);
    c.advance(MIN_AGE_FOR_RENEWAL_MS);
    expect(await k.afterUnauthorized('t0')).toBe('t1');
    // Another call that had sent t0 gets the new one without a second request.
    expect(await k.afterUnauthorized('t0')).toBe('t1');
    expect(i.count()).toBe(1);
  });

  it('renews a short-lived token after a 401 once it is past half its renewal point (8 s tokens)', async () => {
    const c = clock();
    const i = issuer(8);
    const k = tokenKeeper({ accessToken: 't0', expiresIn: 8 }, i.renew, () => {}, c.now);
    c.advance(3000);
    expect(await k.afterUnauthorized('t0')).toBeUndefined();
    // Sent just before its renewal (6.4 s) and answered after it ran out (8 s) on a slow machine.
    c.advance(5100);
    expect(await k.afterUnauthorized('t0')).toBe('t1');
  });

  it("counts a token's age from when it was asked for (2 s tokens whose answers took a second on a loaded machine)", async () => {
    const c = clock();
    // The answer to the renewal comes 1.2 s after the request: the token has 0.8 s left on arrival.
    const slow = async () => {
      c.advance(1200);
      return { accessToken: 't1', expiresIn: 2 };
    };
    const k = tokenKeeper({ accessToken: 't0', expiresIn: 2, requestedAt: c.now() - 1200 }, slow, () => {}, c.now);
    // 0.5 s after the first token arrived (1.7 s after it was asked for), a call is refused 401: expired.
    c.advance(500);
    expect(await k.afterUnauthorized('t0')).toBe('t1');
  });

  it('does not renew after a 401 while a stated lifetime is far from its end', async () => {
    const c = clock();
    const i = issuer(3600);
    const k = tokenKeeper({ accessToken: 't0', expiresIn: 3600 }, i.renew, () => {}, c.now);
    c.advance(60_000);
    expect(await k.afterUnauthorized('t0')).toBeUndefined();
    c.advance(3600 * 800 - 60_000 - MIN_AGE_FOR_RENEWAL_MS);
    expect(await k.afterUnauthorized('t0')).toBe('t1');
  });
});
