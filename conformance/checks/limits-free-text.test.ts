import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../simulator/contract/limits.ts';
import { FREE_TEXT_FIELDS } from './limits-free-text.ts';

describe('limits.free-text-accepted', () => {
  it('sends every field the contract marks as text (bounded by length only), and no other', () => {
    const marked = Object.entries(LIMITS)
      .filter(([, l]) => typeof l === 'object' && 'text' in l)
      .map(([k]) => k);
    expect(FREE_TEXT_FIELDS.map((f) => f.field).sort()).toEqual(marked.sort());
  });
});
