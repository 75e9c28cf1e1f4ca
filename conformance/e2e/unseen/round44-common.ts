import type { ProxyCall } from './proxy.ts';
import { home } from './proxy-helpers.ts';

export type Rec = Record<string, any>;
export const CURRENT = '2026-07-01';
export const EARLIER = '2026-06-12';
/** A call for a tenant other than the run's own one; reads the tenant before home() records anything. */
export const isSecond = (c: ProxyCall) => {
  const tenant = c.headers['x-service-tenant'];
  const first = home(c);
  return Boolean(first && tenant && tenant !== first);
};
export const altSecond = (c: ProxyCall) => isSecond(c) && c.base === 'alt';
export const earlier = (c: ProxyCall) => (c.search.get('version') ?? c.headers['service-version']) === EARLIER;
