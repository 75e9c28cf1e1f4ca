import { describe, expect, it } from 'vitest';
import type { Exchange } from '../client/http-client.ts';
import { asksForCredentials } from './discovery.ts';

const answer = (status: number, code?: string) =>
  ({
    status,
    json: code ? { ok: false, error: { code, message: 'x' } } : { ok: true, data: {} },
  }) as unknown as Exchange;

describe('asksForCredentials (discovery.public-endpoints under an earlier version)', () => {
  it('finds a public read that asks for credentials', () => {
    expect(asksForCredentials(answer(401, 'unauthorized'))).toBe('answered 401 unauthorized without credentials');
    expect(asksForCredentials(answer(403, 'forbidden'))).toMatch(/403/);
  });
  it('accepts an answer, or a refusal of the version itself', () => {
    expect(asksForCredentials(answer(200))).toBeUndefined();
    expect(asksForCredentials(answer(400, 'invalid_request'))).toBeUndefined();
  });
});
