import { describe, expect, it } from 'vitest';
import { bareMediaType, duplicateOperationIds, mediaTypeListed } from './openapi-consistency.ts';
import type { OpenApiLike } from './support/openapi.ts';

describe('duplicateOperationIds (openapi.operation-ids-unique)', () => {
  it('names an operationId two operations share, with both operations', () => {
    const doc: OpenApiLike = {
      paths: {
        '/api/public/v1/capabilities': {
          get: { operationId: 'listCapabilities' },
          post: { operationId: 'listCapabilities' },
        },
        '/api/public/v1/providers': { get: { operationId: 'listProviders' } },
      },
    };
    expect(duplicateOperationIds(doc)).toEqual([
      {
        id: 'listCapabilities',
        operations: ['GET /api/public/v1/capabilities', 'POST /api/public/v1/capabilities'],
      },
    ]);
  });

  it('reads path items that are references, and counts one operation reached twice once', () => {
    const shared = { get: { operationId: 'describe' } };
    const doc = {
      servers: [{ url: '/api/public/v1' }],
      paths: { '/': { $ref: '#/components/pathItems/Root' }, '/index': { $ref: '#/components/pathItems/Root' } },
      components: { pathItems: { Root: shared } },
    } as unknown as OpenApiLike;
    expect(duplicateOperationIds(doc)).toEqual([]);
    const two = {
      paths: {
        '/a': { $ref: '#/components/pathItems/A' },
        '/b': { get: { operationId: 'same' } },
      },
      components: { pathItems: { A: { get: { operationId: 'same' } } } },
    } as unknown as OpenApiLike;
    expect(duplicateOperationIds(two).map((d) => d.operations)).toEqual([['GET /a', 'GET /b']]);
  });

  it('ignores operations without an operationId (it is optional)', () => {
    expect(duplicateOperationIds({ paths: { '/a': { get: {}, post: {} } } })).toEqual([]);
  });
});

describe('mediaTypeListed (openapi.success-content-type)', () => {
  it('compares the media type without parameters, in any letter case', () => {
    expect(bareMediaType('Application/JSON;charset=UTF-8')).toBe('application/json');
    expect(bareMediaType(undefined)).toBe('');
    expect(mediaTypeListed('application/json', ['application/json; charset=utf-8'])).toBe(true);
    expect(mediaTypeListed('text/event-stream', ['Text/Event-Stream'])).toBe(true);
  });

  it('takes ranges as listing every type they cover, and nothing else', () => {
    expect(mediaTypeListed('text/event-stream', ['text/*'])).toBe(true);
    expect(mediaTypeListed('application/yaml', ['*/*'])).toBe(true);
    expect(mediaTypeListed('text/event-stream', ['application/json'])).toBe(false);
    expect(mediaTypeListed('text/plain', ['application/json', 'application/yaml'])).toBe(false);
    expect(mediaTypeListed('', ['application/json'])).toBe(false);
  });
});
