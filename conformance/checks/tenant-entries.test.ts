import { describe, expect, it } from 'vitest';
import type { OpenApiLike } from './support/openapi.ts';
import { entryReads } from './tenant-entries.ts';

describe('entryReads (documented reads of one entry the kit can create)', () => {
  it('finds GET paths whose only parameter follows a collection the kit creates in', () => {
    const doc = {
      openapi: '3.1.0',
      servers: [{ url: '/api/public/v1' }],
      paths: {
        '/connections/{connectionId}': { get: {} },
        '/webhooks/{id}': { get: {}, delete: {} },
        '/webhooks/{id}/deliveries': { get: {} },
        '/providers/{id}': { get: {} },
        '/connections': { get: {} },
      },
    } as unknown as OpenApiLike;
    expect(entryReads(doc)).toEqual([
      { path: '/api/public/v1/connections/{connectionId}', collection: 'connections', belongs: false },
      { path: '/api/public/v1/webhooks/{id}', collection: 'webhooks', belongs: false },
      { path: '/api/public/v1/webhooks/{id}/deliveries', collection: 'webhooks', belongs: true },
    ]);
  });
  it('reads a receiver collection under another name (webhook-subscriptions), never a delivery by its id', () => {
    const doc = {
      paths: {
        '/api/public/v1/webhook-subscriptions/{id}': { get: {} },
        '/api/public/v1/webhook-subscriptions/{id}/deliveries': { get: {} },
        '/api/public/v1/webhook-deliveries/{id}': { get: {} },
      },
    };
    expect(entryReads(doc).map((r) => [r.path, r.collection, r.belongs])).toEqual([
      ['/api/public/v1/webhook-subscriptions/{id}', 'webhooks', false],
      ['/api/public/v1/webhook-subscriptions/{id}/deliveries', 'webhooks', true],
    ]);
  });

  it('adds the delivery log the deployment profile declares when the document does not list it', () => {
    const doc = { openapi: '3.1.0', paths: {} } as unknown as OpenApiLike;
    expect(entryReads(doc, '/api/public/v1/webhooks/{webhookId}/attempts')).toEqual([
      { path: '/api/public/v1/webhooks/{webhookId}/attempts', collection: 'webhooks', belongs: true },
    ]);
    expect(entryReads(doc, null)).toEqual([]);
  });
});
