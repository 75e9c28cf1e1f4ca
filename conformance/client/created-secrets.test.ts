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

  it('redacts a secret in a generic field of an object named like one (secret.value, signing.key), not its algorithm, date or note', () => {
    const redactor = createRedactor();
    const value = 'spk_wGYIuwpz3BE7GJbxVEq6dSryKkXH_9sMINhalNegyxE';
    registerCreatedSecrets(
      {
        data: {
          secret: {
            value,
            algorithm: 'HMAC-SHA256-with-a-long-name',
            createdAt: '2026-11-27T05:52:20.5660000Z',
            note: 'Shown once. Store it now.',
          },
          signing: { key: 'whk_0123456789abcdefghij' },
        },
      },
      redactor,
    );
    const text = redactor.text(`expected "${value}" key whk_0123456789abcdefghij HMAC-SHA256-with-a-long-name`);
    expect(text).toBe('expected "$NCS_SECRET_VALUE" key $NCS_SIGNING_KEY HMAC-SHA256-with-a-long-name');
    expect(redactor.text('2026-11-27T05:52:20.5660000Z')).toBe('2026-11-27T05:52:20.5660000Z');
  });

  it('reads arrays item by item: secrets listed under a secret-named field, objects in a list, numbers skipped', () => {
    const redactor = createRedactor();
    const numbers = Array.from({ length: 100_000 }, () => 0);
    registerCreatedSecrets(
      {
        data: {
          signingSecrets: ['whsec_listed_0123456789ab'],
          keys: [{ signingKey: 'whsec_in_a_list_987654' }],
          numbers,
        },
      },
      redactor,
    );
    const text = redactor.text('whsec_listed_0123456789ab whsec_in_a_list_987654');
    expect(text).not.toContain('whsec_listed');
    expect(text).not.toContain('whsec_in_a_list');
  });
});
