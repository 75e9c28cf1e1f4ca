import { describe, expect, it } from 'vitest';
import type { Exchange } from '../client/http-client.ts';
import { routeOf } from './exchange-scope.ts';

const BASE = 'http://127.0.0.1:4010';
const ex = (method: string, path: string) =>
  ({ method, url: `${BASE}${path}`, requestHeaders: {} }) as unknown as Exchange;

describe('routeOf', () => {
  it('routes a path as sent: the interface route, not another form of it', () => {
    expect(routeOf(ex('GET', '/api/public/v1/providers'), [BASE])?.id).toBe('listProviders');
    // A trailing slash or a percent-encoded letter is another form a deployment may answer as no route (a 404
    // without the route's headers): the route's rules do not judge it (requests.other-forms-* do).
    expect(routeOf(ex('GET', '/api/public/v1/providers/'), [BASE])).toBeUndefined();
    expect(routeOf(ex('GET', '/api/public/v1/%70roviders'), [BASE])).toBeUndefined();
    expect(routeOf(ex('HEAD', '/api/public/v1/providers'), [BASE])).toBeUndefined();
  });
});
