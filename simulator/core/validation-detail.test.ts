import { describe, expect, it } from 'vitest';
import { describeValidationErrors } from './validation-detail.ts';

describe('describeValidationErrors', () => {
  it('names fields and their problem, deduplicated', () => {
    const { detail, fields } = describeValidationErrors([
      { instancePath: '/requestBody', keyword: 'required', params: { missingProperty: 'connectorId' }, schemaPath: '' },
      { instancePath: '/requestBody/scopeLabel', keyword: 'maxLength', params: { limit: 120 }, schemaPath: '' },
      { instancePath: '/requestBody/scopeLabel', keyword: 'maxLength', params: { limit: 120 }, schemaPath: '' },
      { instancePath: '/query/cursor', keyword: 'minimum', params: { limit: 0 }, schemaPath: '' },
    ]);
    expect(fields).toEqual(['body field connectorId', 'body field scopeLabel', 'query field cursor']);
    expect(detail).toBe(
      'body field connectorId is required; body field scopeLabel must be at most 120 characters long; query field cursor must be >= 0.',
    );
  });

  it('has a fallback when Ajv says nothing useful', () => {
    expect(describeValidationErrors([]).detail).toMatch(/published description/);
  });
});
