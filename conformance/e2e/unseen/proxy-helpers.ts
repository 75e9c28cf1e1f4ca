import { BASE_PATH } from '../../../simulator/contract/versions.ts';
import type { ProxyAnswer, ProxyCall } from './proxy.ts';

// What every list of unseen violations asks of a call: its path under the base, whether it creates a
// connection, which list a read answers, and the tenant the run works for. One place, so the lists
// written by different outsiders read calls the same way.

/** A path under the interface's base. @example P('/connections') */
export const P = (tail: string) => `${BASE_PATH}${tail}`;

/** The call creates a connection. */
export const isCreate = (c: ProxyCall) => c.method === 'POST' && c.path === P('/connections');

/** The list field each catalog and connection read answers. */
export const LISTS: Readonly<Record<string, string>> = {
  [P('/providers')]: 'providers',
  [P('/connectors')]: 'connectors',
  [P('/capabilities')]: 'capabilities',
  [P('/connections')]: 'connections',
};

/** The run's own tenant: the first one an authenticated call named (kept in the violation's memory). */
export const home = (c: ProxyCall) => {
  const tenant = c.headers['x-service-tenant'];
  if (tenant && c.headers.authorization && !c.memory.has('home')) c.memory.set('home', tenant);
  return c.memory.get('home') as string | undefined;
};

/**
 * Turns an answer into the failure envelope a deployment would send for `code` (round 5): its headers
 * and meta (request id, version, time) stay, so only the status, code and words are the deployment's.
 * @example refuse(a, 403, 'forbidden', 'The access may not perform the action.')
 */
export const refuse = (a: ProxyAnswer, status: number, code: string, message: string, detail?: string) => {
  const { replayed: _replayed, ...meta } = (a.json.meta ?? {}) as Record<string, unknown>;
  a.status = status;
  a.json = { ok: false, error: { code, message, ...(detail ? { detail } : {}) }, meta };
  a.headers['content-type'] = 'application/json; charset=utf-8';
  delete a.raw;
};
