import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { home, P, refuse } from './proxy-helpers.ts';
import { earlier } from './round44-common.ts';

/**
 * Round 60, part 2: the bearer token at the API as OAuth 2.1 (RFC 6749/6750) defines it: a renewed token,
 * another scheme's spelling, another header or a query parameter, the challenge of a 401, and the earlier
 * version's refusal of a tenant the access is not released for.
 */
const bearer = (c: ProxyCall) => /^Bearer\s+(\S+)$/i.exec(c.headers.authorization ?? '')?.[1];

export const ROUND60_INPUTS: UnseenViolation[] = [
  {
    name: 'earlier-version-unreleased-tenant-answered-404',
    statement:
      'Errors: forbidden | 403 | access may not perform the action | role missing, tenant not released (under Service-Version 2026-06-12)',
    answer(c, a) {
      // The 2026-06-12 error mapper hides every tenant mismatch behind 404, as its "not your entry" rule did.
      if (!earlier(c) || a.status !== 403 || a.json.error?.code !== 'forbidden') return;
      refuse(a, 404, 'not_found', 'The entry does not exist.', 'Compare identifier and tenant header.');
    },
  },
  {
    name: 'renewed-token-refused-after-first-token-cached',
    statement:
      'Authentication: Tokens are short-lived and are renewed, not extended; Authorization | Bearer token obtained through an OAuth flow (a renewed token of the same tenant)',
    answer(c, a) {
      // The gateway caches the validated token per tenant for its lifetime and compares every later token with
      // the cached one: a renewed token fails the comparison until the entry expires.
      home(c);
      const token = bearer(c);
      const tenant = c.headers['x-service-tenant'];
      if (!token || !tenant || a.status >= 300) return;
      const slot = `r60-token:${tenant}`;
      const cached = c.memory.get(slot) as string | undefined;
      if (!cached) return void c.memory.set(slot, token);
      if (cached === token) return;
      refuse(a, 401, 'unauthorized', 'The call was not signed in.', 'Request a new access token.');
      a.headers['www-authenticate'] = 'Bearer realm="ncs", error="invalid_token"';
    },
  },
  {
    name: 'token-scheme-spelling-accepted',
    statement:
      'Authentication: Authorization | Bearer token obtained through an OAuth flow (a token sent under the scheme Token or JWT)',
    request(c) {
      // The auth middleware was copied from a service that took "Token <t>" and "JWT <t>"; it strips any
      // scheme word before the token.
      const m = /^(Token|JWT)\s+(\S+)$/i.exec(c.headers.authorization ?? '');
      if (m) c.headers.authorization = `Bearer ${m[2]}`;
      return undefined;
    },
  },
  {
    name: 'unauthorized-challenge-asks-for-basic',
    statement:
      'Authentication: Authorization | Bearer token obtained through an OAuth flow; Errors: unauthorized | 401 (its challenge names the scheme to use)',
    answer(_c, a) {
      // The framework's default 401 handler sets its own challenge header after the service's one.
      if (a.status === 401) a.headers['www-authenticate'] = 'Basic realm="api", charset="UTF-8"';
    },
  },
  {
    name: 'stream-access-token-query-selects-tenant-feed',
    statement:
      'What the service does: Access credentials stay in the partner’s backend and are never sent from a browser; Authorization | Bearer token (the stream with ?access_token=)',
    request(c) {
      // EventSource in a browser cannot set headers, so the stream route was given an access_token query
      // parameter (and a tenant one) "for the dashboard".
      if (c.method !== 'GET' || c.path !== P('/stream')) return undefined;
      const token = c.search.get('access_token');
      if (!token) return undefined;
      c.headers.authorization = `Bearer ${token}`;
      const tenant = c.search.get('tenant');
      if (tenant) c.headers['x-service-tenant'] = tenant;
      c.search.delete('access_token');
      c.search.delete('tenant');
      return undefined;
    },
  },
  {
    name: 'token-in-x-access-token-header-accepted',
    statement:
      'Authentication: Required on every authenticated call: Authorization | Bearer token obtained through an OAuth flow (a token in X-Access-Token instead)',
    request(c) {
      // An API gateway plugin copies X-Access-Token into Authorization when the latter is missing.
      const token = c.headers['x-access-token'];
      if (token && !c.headers.authorization) c.headers.authorization = `Bearer ${token}`;
      return undefined;
    },
  },
];
