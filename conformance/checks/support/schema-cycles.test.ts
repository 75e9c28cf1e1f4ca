import { describe, expect, it } from 'vitest';
import { breakInPlaceCycles } from './schema-cycles.ts';

describe('refersToItself', () => {
  it('breaks in-place $ref cycles (self allOf, Loop1 <-> Loop2), not recursion through properties', () => {
    const doc = {
      components: {
        schemas: {
          Node: { type: 'object', properties: { child: { $ref: '#/components/schemas/Node' } } },
          Self: { allOf: [{ $ref: '#/components/schemas/Self' }] },
          Loop1: { $ref: '#/components/schemas/Loop2' },
          Loop2: { $ref: '#/components/schemas/Loop1' },
        },
      },
    };
    expect(breakInPlaceCycles(doc, '/components/schemas/Self')).toBe(1);
    expect(doc.components.schemas.Self).toEqual({ allOf: [{}] });
    expect(breakInPlaceCycles(doc, '#/components/schemas/Loop1')).toBe(1);
    expect(breakInPlaceCycles(doc, '/components/schemas/Node')).toBe(0);
  });
});
