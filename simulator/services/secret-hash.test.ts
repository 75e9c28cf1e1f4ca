import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashToken } from './secret-hash.ts';

const sha = (s: string) => createHash('sha256').update(s).digest('base64url');

describe('hashToken', () => {
  it('answers the SHA-256 of each secret, whatever was hashed just before (the last one is remembered)', () => {
    for (const s of ['ncs_at_a', 'ncs_at_a', 'ncs_at_b', '', '', 'ncs_at_a', 'é', 'ncs_at_b', 'ncs_at_b'])
      expect(hashToken(s)).toBe(sha(s));
  });
});
