import { describe, expect, it } from 'vitest';
import type { Exchange } from '../client/http-client.ts';
import { takenBy, wholeValue } from './trace-checks.ts';

const call = (method: string, status: number, body: string, headers: Record<string, string> = {}) =>
  ({
    method,
    url: 'http://127.0.0.1/api/public/v1/connections',
    status,
    requestBody: body,
    requestHeaders: headers,
  }) as unknown as Exchange;

describe('generated.refused-left-no-trace', () => {
  it('looks for the whole value, not the start of a longer label', () => {
    expect(wholeValue('kit-probe-3').test('{"scopeLabel":"kit-probe-31"}')).toBe(false);
    expect(wholeValue('kit-probe-3').test('{"scopeLabel":"kit-probe-3"}')).toBe(true);
    expect(wholeValue('a.b').test('aXb')).toBe(false);
  });

  it('does not look for a value an accepted modifying call also sent (in its body or headers)', () => {
    const sent = takenBy([
      call('POST', 200, '{"scopeLabel":"shared-label"}'),
      call('POST', 201, '{}', { 'Idempotency-Key': 'key-taken-0001' }),
      call('POST', 400, '{"scopeLabel":"refused-only"}'),
      call('GET', 200, 'get-bodies-say-nothing'),
    ]);
    expect(sent('shared-label')).toBe(true);
    expect(sent('key-taken-0001')).toBe(true);
    // Sent only in refused calls or reads: still looked for.
    expect(sent('refused-only')).toBe(false);
    expect(sent('get-bodies-say-nothing')).toBe(false);
  });

  it('nor one a modifying call without an answer or answered 5xx sent (its effect is unknown)', () => {
    const sent = takenBy([
      call('POST', 0, '{"scopeLabel":"timed-out"}'),
      call('POST', 503, '{"scopeLabel":"faulted"}'),
      call('POST', 429, '{"scopeLabel":"paced"}'),
    ]);
    expect(sent('timed-out')).toBe(true);
    expect(sent('faulted')).toBe(true);
    expect(sent('paced')).toBe(false);
  });
});
