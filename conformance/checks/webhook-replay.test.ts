import { describe, expect, it } from 'vitest';
import { withheldNotes } from './webhook-replay.ts';

describe('a replayed registration holding the signing key back (webhooks.registration-replay)', () => {
  it('takes the fields the replay adds beside a key it does not repeat as the withholding', () => {
    const first = { id: 'wh_1', signing: { key: 'hwsk_1', algorithm: 'HMAC-SHA256' } };
    const replay = { id: 'wh_1', signing: { algorithm: 'HMAC-SHA256', keyShown: 'only in the first answer' } };
    expect(withheldNotes(first, replay, ['signing.key'])).toEqual(['signing.keyShown']);
    // At data's root too (dogwood's `signingKeyRedacted: true`).
    expect(withheldNotes({ id: 1, signingKey: 'k' }, { id: 1, signingKeyRedacted: true }, ['signingKey'])).toEqual([
      'signingKeyRedacted',
    ]);
  });

  it('lets nothing else pass: a key repeated, a sibling changed, a header path', () => {
    const first = { signing: { key: 'k', algorithm: 'a' } };
    expect(withheldNotes(first, { signing: { key: 'k', algorithm: 'a', extra: 1 } }, ['signing.key'])).toEqual([]);
    // A sibling the first answer had is compared as it is (only new names are notes).
    expect(withheldNotes(first, { signing: { algorithm: 'b' } }, ['signing.key'])).toEqual([]);
    expect(withheldNotes(first, { signing: {} }, ['(header x-key)'])).toEqual([]);
  });
});
