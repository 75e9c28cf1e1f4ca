import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { home, P, refuse } from './proxy-helpers.ts';
import { CURRENT, type Rec } from './round44-common.ts';
import { kept, remember } from './round58-common.ts';

/** Round 58, part 2: access and tokens in combination (tenant headers, the alternate address, 401 against 403). */
const isCheck = (c: ProxyCall) => c.method === 'POST' && c.path === P('/capabilities');
const own = (c: ProxyCall): ProxyAnswer => {
  const json: Rec = {
    ok: false,
    error: {
      code: 'unauthorized',
      message: 'The call was not signed in.',
      detail: 'The token was not issued for this audience.',
    },
    meta: {
      requestId: `req_r58${Math.random().toString(36).slice(2, 14)}`,
      version: CURRENT,
      at: new Date().toISOString(),
    },
  };
  void c;
  return { status: 401, headers: { 'content-type': 'application/json; charset=utf-8' }, json };
};

export const ROUND58_INPUTS: UnseenViolation[] = [
  {
    name: 'foreign-tenant-capability-check-decided',
    statement:
      'Errors: forbidden | 403 | access may not perform the action | tenant not released; Authentication: x-service-tenant | identifier of the tenant for which the call applies (a check sent with a tenant the token is not released for)',
    request(c) {
      // The check only reads the catalog, so its handler resolves the tenant from the token's default tenant and the
      // release check on the x-service-tenant header was left out of that route.
      const first = home(c);
      const tenant = c.headers['x-service-tenant'];
      if (!isCheck(c) || !first || !tenant || tenant === first || !c.headers.authorization) return undefined;
      c.headers['x-service-tenant'] = first;
      return undefined;
    },
  },
  {
    name: 'alt-address-refuses-main-issued-token',
    statement:
      'The same interface is also offered under a second main-domain address {alt_base_url}; Authentication: Authorization | Bearer token obtained through an OAuth flow (a valid token presented at the alternate address)',
    request(c) {
      // The alternate address validates the token audience against its own host name, so every token the
      // authorization server issues (audience = the main address) is refused there.
      home(c);
      if (c.base !== 'alt' || !c.headers.authorization) return undefined;
      return own(c);
    },
  },
  {
    name: 'second-tenant-missing-token-answered-forbidden',
    statement:
      'Errors: unauthorized | 401 | call was not signed in | token missing (a call without a token that names the second tenant)',
    answer(c, a) {
      // The tenant release cache is consulted before the token check; for a tenant other than the cached default the
      // miss is answered as a release failure.
      const first = home(c);
      const tenant = c.headers['x-service-tenant'];
      if (a.status !== 401 || c.headers.authorization || !first || !tenant || tenant === first) return;
      refuse(
        a,
        403,
        'forbidden',
        'This access may not perform the action.',
        'The access is not released for this tenant.',
      );
    },
  },
  {
    name: 'alt-unknown-token-with-other-tenant-answered-forbidden',
    statement:
      "Errors: unauthorized | 401 | call was not signed in | token missing, token expired; forbidden | 403 | role missing, tenant not released (an unrecognised token sent at the alternate address with a tenant other than the run's own)",
    answer(c, a) {
      // The alternate gateway checks the tenant release list by header first and only then introspects the token, so
      // a bad token with any tenant but its default one comes back 403.
      const first = home(c);
      const tenant = c.headers['x-service-tenant'];
      if (c.base !== 'alt' || a.status !== 401 || !c.headers.authorization || !tenant || tenant === first) return;
      refuse(
        a,
        403,
        'forbidden',
        'This access may not perform the action.',
        'The access is not released for this tenant.',
      );
    },
  },
  {
    name: 'unauthorized-repeat-of-used-key-marked-replayed',
    statement:
      'Meta: replayed | true when the response comes from an earlier identical operation; Errors: unauthorized | 401 (a keyed call refused for its token, under a key an earlier call already used)',
    answer(c, a) {
      // The replay lookup runs before the token check; on a hit it stamps meta.replayed and the key before the auth
      // middleware throws, and the error envelope keeps the stamped meta.
      home(c);
      const key = c.headers['idempotency-key'];
      if (!key) return;
      const used = (c.memory.get('r58-used-keys') as Set<string> | undefined) ?? new Set<string>();
      c.memory.set('r58-used-keys', used);
      if (a.status === 200) {
        used.add(key);
        return;
      }
      if (a.status !== 401 || !used.has(key) || !a.json.meta) return;
      a.json.meta.replayed = true;
      a.json.meta.idempotencyKey = key;
    },
  },
  {
    name: 'capability-check-served-without-token',
    statement:
      'Endpoints: POST | /api/public/v1/capabilities | yes | check a capability of a connector; Errors: unauthorized | 401 | token missing (a check sent without a token)',
    request(c) {
      // The check handler was moved behind the catalog cache, which calls the policy service with the last service
      // credential it holds when the caller sent none.
      const had = Boolean(c.headers.authorization);
      remember(c);
      if (!isCheck(c) || had) return undefined;
      const auth = c.memory.get('r58-auth') as string | undefined;
      if (!auth) return undefined;
      c.headers.authorization = auth;
      if (!c.headers['x-service-tenant']) c.headers['x-service-tenant'] = String(c.memory.get('r58-auth-tenant') ?? '');
      return undefined;
    },
    answer(c, a) {
      kept(c, a);
    },
  },
  {
    name: 'tokenless-keyless-webhook-registration-answered-428',
    statement:
      'Errors: unauthorized | 401 | call was not signed in | token missing (a webhook registration without token and without Idempotency-Key)',
    answer(c, a) {
      // The idempotency middleware is mounted before the auth middleware on the webhooks router only.
      home(c);
      if (c.method !== 'POST' || c.path !== P('/webhooks') || a.status !== 401) return;
      if (c.headers.authorization || c.headers['idempotency-key']) return;
      refuse(
        a,
        428,
        'idempotency_required',
        'An idempotency key is mandatory for this call.',
        'Send the header Idempotency-Key.',
      );
    },
  },
];
