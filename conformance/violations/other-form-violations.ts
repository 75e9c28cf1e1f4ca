// Violations of a route reached in another form: a gateway's rule matching the exact path only, a proxy
// answering HEAD itself, a query parser that meets a parameter twice. The route's own form answers right,
// so only a kit that sends the other forms (requests.other-forms-*) sees them.
import { BASE_PATH } from '../../simulator/contract/versions.ts';
import { defaultAccess } from './default-access.ts';
import { failureOf } from './json-edit.ts';
import type { Violation } from './types.ts';

const CONNECTIONS = `${BASE_PATH}/connections`;
/** A trailing slash on an interface path below the base (the self-description's own slash aside). */
const slashed = (path: string) =>
  path.startsWith(`${BASE_PATH}/`) && path.length > BASE_PATH.length + 1 && path.endsWith('/');

export const OTHER_FORM_VIOLATIONS: Violation[] = [
  {
    name: 'head-answered-no-content',
    description: 'a HEAD of any GET route is answered 204 by the gateway (the GET it stands for answers 200)',
    section: 'Endpoints',
    catches: ['requests.other-forms-as-route'],
    async handle(req, next) {
      const res = await next(req);
      return req.method === 'HEAD' && res.status === 200 ? { ...res, status: 204 } : res;
    },
  },
  {
    name: 'trailing-slash-reads-without-credentials',
    description:
      "the gateway's authentication rule matches each path exactly: a GET with a trailing slash reaches the service without credentials, which serves the gateway's default tenant",
    section: 'Authentication',
    catches: ['requests.other-forms-as-route'],
    async handle(req, next, core) {
      if (req.method !== 'GET' || !slashed(req.path) || req.headers.authorization) return next(req);
      const { token, tenant } = await defaultAccess(core);
      const headers = { ...req.headers, authorization: `Bearer ${token}`, 'x-service-tenant': tenant };
      return next({ ...req, path: req.path.slice(0, -1), headers });
    },
  },
  {
    name: 'trailing-slash-creation-without-key',
    description:
      "POST /connections/ (a trailing slash) skips the gateway's key rule: the service is called with a key the gateway makes up, and the connection is created",
    section: 'POST /api/public/v1/connections',
    catches: ['requests.other-forms-key-required'],
    async handle(req, next) {
      if (req.method !== 'POST' || req.path !== `${CONNECTIONS}/` || req.headers['idempotency-key']) return next(req);
      const key = `gateway-${Math.random().toString(36).slice(2, 14)}`;
      return next({ ...req, path: CONNECTIONS, headers: { ...req.headers, 'idempotency-key': key } });
    },
  },
  {
    name: 'repeated-query-parameter-crashes',
    description:
      'a query parameter sent twice reaches the handler as a list, which its string filter cannot read: 500 internal',
    section: 'Errors',
    catches: ['requests.other-forms-no-fault'],
    async handle(req, next) {
      if (Object.values(req.query).some(Array.isArray)) return failureOf('internal', 'filter failed');
      return next(req);
    },
  },
  {
    name: 'repeated-filter-values-joined',
    description:
      'a query parameter sent twice is joined with a comma (category=pos&category=pos becomes "pos,pos"): the filter then matches nothing',
    section: 'GET /api/public/v1/providers',
    catches: ['requests.other-forms-as-route'],
    async handle(req, next) {
      const query = Object.fromEntries(
        Object.entries(req.query).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : v]),
      );
      return next({ ...req, query });
    },
  },
  {
    name: 'options-refused-ok-true',
    description:
      "OPTIONS on any route is refused 405 by the gateway's method filter with a body of its own template: ok true and an error code",
    section: 'Failure envelope',
    catches: ['requests.other-forms-as-route'],
    async handle(req, next) {
      if (req.method !== 'OPTIONS' || req.headers.origin) return next(req);
      const refused = failureOf('invalid_request', 'method not allowed', 405);
      return { ...refused, body: JSON.stringify({ ...JSON.parse(String(refused.body)), ok: true }) };
    },
  },
];
