import { describe, expect, it } from 'vitest';
import { IdempotencyKey } from '../../../simulator/contract/idempotency.ts';
import type { CheckContext } from '../../runner/check.ts';
import { freshKey } from './connections.ts';

describe('freshKey', () => {
  let n = 0;
  const ctx = { label: (kind: string) => `ncs-conformance-1a2b3c4d-${kind}-${++n}` } as unknown as CheckContext;
  it('is a valid key that uses every kind of character the pattern allows', () => {
    const key = freshKey(ctx);
    expect(IdempotencyKey.safeParse(key).success).toBe(true);
    for (const kind of [/[A-Z]/, /[a-z]/, /\d/, /\./, /_/, /:/, /-/]) expect(key, String(kind)).toMatch(kind);
    expect(freshKey(ctx)).not.toBe(key);
  });
});
