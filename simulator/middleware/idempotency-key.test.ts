import { describe, expect, it } from 'vitest';
import type { ApiError } from '../core/api-error.ts';
import { idempotencyKeyStep } from './idempotency-key.ts';
import { okResponse, stepRun, testContext } from '../test-support/test-context.ts';

describe('idempotencyKeyStep', () => {
  const mw = stepRun(idempotencyKeyStep());
  const run = (key: string | undefined, idempotent = true) =>
    mw(testContext({ route: { idempotent }, headers: key === undefined ? {} : { 'idempotency-key': key } }), async () =>
      okResponse(),
    );
  const code = async (p: Promise<unknown>) =>
    p.then(
      () => 'passed',
      (e: ApiError) => e.code,
    );

  it('428 without a key, 400 for a malformed one, passes 8..128 allowed characters', async () => {
    expect(await code(run(undefined))).toBe('idempotency_required');
    expect(await code(run(''))).toBe('idempotency_required');
    expect(await code(run('a'.repeat(7)))).toBe('invalid_request');
    expect(await code(run('a'.repeat(129)))).toBe('invalid_request');
    expect(await code(run('bad key!'))).toBe('invalid_request');
    expect(await code(run('a'.repeat(8)))).toBe('passed');
    expect(await code(run('Az09._:-'.repeat(16)))).toBe('passed');
  });
  it('ignores calls that are not modifying', async () => {
    expect(await code(run(undefined, false))).toBe('passed');
  });
});
