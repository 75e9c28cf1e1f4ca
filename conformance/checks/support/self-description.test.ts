import { describe, expect, it } from 'vitest';
import { MAX_ROUTE_PROBLEMS, openApiTemplate, parseRoutes, routeKey } from './self-description.ts';

describe('parseRoutes', () => {
  it('keeps the valid routes and names the first problems only', () => {
    const good = { method: 'GET', path: '/api/public/v1/info', purpose: 'p', auth: false };
    const r = parseRoutes([good, {}, { ...good, auth: 'no' }]);
    expect(r.routes).toEqual([good]);
    expect(r.bad).toBe(2);
    expect(r.problems[0]).toMatch(/^1\.method: /);
    expect(r.problems[1]).toMatch(/^2\.auth: /);
  });

  // Memory is measured where it can be, in a child process of its own (attacks-round9-kit.e2e.test.ts): a
  // worker's heapUsed counts the garbage of other files' tests.
  it('reads 600,000 `{}` entries keeping only the first problems, counting past them', () => {
    const r = parseRoutes(Array.from({ length: 600_000 }, () => ({})));
    expect(r.bad).toBe(600_000);
    expect(r.problems).toHaveLength(MAX_ROUTE_PROBLEMS);
  });

  it('says what routes is when it is not a list', () => {
    expect(parseRoutes(null).problems).toEqual(['routes: expected a list, got null']);
  });
});

describe('routeKey (self-description routes beside the document operations)', () => {
  it("writes a route's path parameters alike, whatever the router's spelling and name", () => {
    const key = routeKey({ method: 'delete', path: '/api/public/v1/webhooks/{webhookId}' });
    expect(routeKey({ method: 'DELETE', path: '/api/public/v1/webhooks/:webhookId' })).toBe(key);
    expect(routeKey({ method: 'DELETE', path: '/api/public/v1/webhooks/<id>' })).toBe(key);
    expect(routeKey({ method: 'DELETE', path: '/api/public/v1/webhooks' })).not.toBe(key);
    // A custom method after a parameter is part of the path, not a parameter.
    expect(routeKey({ method: 'POST', path: '/d/{id}:redeliver' })).not.toBe(
      routeKey({ method: 'POST', path: '/d/{id}:cancel' }),
    );
    expect(routeKey({ method: 'GET', path: '/api/public/v1/openapi/2026-07-01.yaml' })).toBe(
      'GET /api/public/v1/openapi/2026-07-01.yaml',
    );
  });
});

describe('openApiTemplate', () => {
  it('writes <name>, <type:name> and a leading :name as {name}, and leaves a custom method alone', () => {
    expect(openApiTemplate('/api/public/v1/openapi/<version>.yaml')).toBe('/api/public/v1/openapi/{version}.yaml');
    expect(openApiTemplate('/webhooks/<int:webhookId>/deliveries')).toBe('/webhooks/{webhookId}/deliveries');
    expect(openApiTemplate('/webhooks/:webhookId/deliveries')).toBe('/webhooks/{webhookId}/deliveries');
    expect(openApiTemplate('/jobs/{id}:cancel')).toBe('/jobs/{id}:cancel');
  });
});
