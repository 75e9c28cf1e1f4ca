import { describe, expect, it } from 'vitest';
import { registerCreatedSecrets } from './created-secrets.ts';
import { createRedactor } from './redact.ts';

describe('registerCreatedSecrets', () => {
  it('redacts a secret an answer hands out, not the identifier that names it', () => {
    const redactor = createRedactor();
    registerCreatedSecrets(
      { data: { signing: { signingKey: 'whsec_0123456789abcdef', signingKeyId: 'key_2026_07_rotation' } } },
      redactor,
    );
    const text = redactor.text('key whsec_0123456789abcdef id key_2026_07_rotation');
    expect(text).not.toContain('whsec_0123456789abcdef');
    expect(text).toContain('key_2026_07_rotation');
  });
});
