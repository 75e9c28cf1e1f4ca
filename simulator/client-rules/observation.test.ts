import { describe, expect, it } from 'vitest';
import { bodyHash, createObservations } from './observation.ts';

describe('observations', () => {
  it('keeps at most maxBuckets client-tenant pairs, dropping the least recently seen', () => {
    const obs = createObservations({ maxBuckets: 2 });
    obs.bucket('a', 't').lastSeen = 1;
    obs.bucket('b', 't').lastSeen = 2;
    obs.bucket('c', 't').lastSeen = 3;
    expect(obs.buckets().map((b) => b.client)).toEqual(['b', 'c']);
    expect(obs.buckets({ client: 'c' })).toHaveLength(1);
  });
  it('keeps the newest callsPerBucket calls of a pair', () => {
    const obs = createObservations({ callsPerBucket: 3 });
    const b = obs.bucket('a', 't');
    for (let i = 0; i < 5; i++) b.calls.push({ requestId: `r${i}` } as never);
    expect(b.calls.slice().map((c) => c.requestId)).toEqual(['r2', 'r3', 'r4']);
  });
  it('hashes bodies: equal bytes, equal hash; no body, 0', () => {
    const enc = (s: string) => new TextEncoder().encode(s);
    expect(bodyHash(enc('{"a":1}'))).toBe(bodyHash(enc('{"a":1}')));
    expect(bodyHash(enc('{"a":1}'))).not.toBe(bodyHash(enc('{"a":2}')));
    expect(bodyHash(undefined)).toBe(0);
  });
});
