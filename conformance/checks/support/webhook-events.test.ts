import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../client/http-client.ts';
import type { CheckContext } from '../../runner/check.ts';
import {
  creationEvent,
  openApiEventNames,
  refusalEventNames,
  selfDescribedEventNames,
  testEvent,
} from './webhook-events.ts';

const PATH = '/api/public/v1/webhooks';
const NAMES = ['connection.requested', 'connection.provisioning', 'connection.live', 'order.created', 'order.paid'];

/** An OpenAPI document whose POST /webhooks body lists its event names as `body`'s schema says. */
const docWith = (schema: unknown, extra: Record<string, unknown> = {}) => ({
  openapi: '3.1.0',
  servers: [{ url: '/api/public/v1' }],
  paths: { '/webhooks': { post: { requestBody: { content: { 'application/json': { schema, ...extra } } } } } },
  components: { schemas: { EventName: { type: 'string', enum: NAMES } } },
});

describe('the event names a deployment publishes (the interface shows samples only)', () => {
  it('reads the events enum of POST /webhooks, through $refs, and the events of its examples', () => {
    const inline = docWith({ type: 'object', properties: { events: { type: 'array', items: { enum: NAMES } } } });
    expect(openApiEventNames(inline, PATH)).toEqual(NAMES);
    const referenced = docWith({
      allOf: [
        {
          type: 'object',
          properties: { events: { type: 'array', items: { $ref: '#/components/schemas/EventName' } } },
        },
      ],
    });
    expect(openApiEventNames(referenced, PATH)).toEqual(NAMES);
    const example = docWith(
      { type: 'object' },
      { examples: { one: { value: { url: 'https://x', events: ['link.opened'] } } } },
    );
    expect(openApiEventNames(example, PATH)).toEqual(['link.opened']);
    expect(openApiEventNames(docWith({ type: 'object' }), PATH)).toEqual([]);
  });

  it('reads lists of event names in the self-description, those named for events or webhooks first', () => {
    const data = {
      authentication: { flows: ['client_credentials'], scopes: ['connections:write'] },
      idempotency: { operations: ['connection.create'], requiredOn: ['POST /api/public/v1/connections'] },
      webhooks: { events: ['CONNECTION_CREATED', 'ORDER_PAID'] },
      documents: { versions: ['2026-06-12'] },
    };
    expect(selfDescribedEventNames(data)).toEqual([['CONNECTION_CREATED', 'ORDER_PAID'], ['connection.create']]);
  });

  it('chooses the name about a connection being created, else its first state, else none', () => {
    expect(creationEvent(['order.created', 'connection.provisioned', 'connection.created'])).toBe('connection.created');
    expect(creationEvent(['ConnectionActivated', 'ConnectionCreated'])).toBe('ConnectionCreated');
    expect(creationEvent(NAMES)).toBe('connection.requested');
    expect(creationEvent(['connection.state_changed'])).toBe('connection.state_changed');
    expect(creationEvent(['order.created', 'order.paid', 'venue.link.created'])).toBeUndefined();
  });

  it('takes the published name before its guess and says where it came from; the profile comes first', async () => {
    const answer = (json: unknown) => ({ status: 200, json }) as unknown as Exchange;
    const ctx = (declared?: string) => {
      const memo = new Map<string, Promise<unknown>>([
        [
          `public-get ${PATH.replace('/webhooks', '/openapi.json')}`,
          Promise.resolve(answer(docWith({ properties: { events: { items: { enum: NAMES } } } }))),
        ],
        ['public-get /api/public/v1', Promise.resolve(answer({ ok: true, data: {} }))],
      ]);
      return {
        deployment: { webhookTestEvent: declared, webhookEventNames: ['order.created', 'order.paid'] },
        declared: () => false,
        shared: (key: string, make: () => Promise<unknown>) => memo.get(key) ?? memo.set(key, make()).get(key),
      } as unknown as CheckContext;
    };
    const found = await testEvent(ctx());
    expect(found).toMatchObject({ name: 'connection.requested', declared: false });
    expect(found.source).toMatch(/OpenAPI document/);
    expect(await testEvent(ctx('venue.link.created'))).toMatchObject({ name: 'venue.link.created', declared: true });
  });

  it('reads the names a refusal of the guessed name lists (elm: only its error names them)', () => {
    const elm = {
      ok: false,
      error: {
        code: 'invalid_request',
        message:
          "The field 'events' must list 1 to 20 of: *, ConnectionCreated, ConnectionActivated, order.created, order.paid.",
      },
    };
    const names = refusalEventNames(elm, 'connection.created');
    expect(names).toEqual(['ConnectionCreated', 'ConnectionActivated', 'order.created', 'order.paid']);
    expect(creationEvent(names)).toBe('ConnectionCreated');
    const nested = { error: { details: [{ field: 'body.events[0]', message: 'unknown event connection.created' }] } };
    expect(creationEvent(refusalEventNames(nested, 'connection.created'))).toBeUndefined();
  });
});
