// Answers that change with the form of a request the interface leaves free: a JSON body spaced over lines, a
// larger page of the audit log, a count read from another store. The kit's usual forms are answered right.
import { BASE_PATH } from '../../simulator/contract/versions.ts';
import { defaultAccess } from './default-access.ts';
import { editJson, failureOf, jsonBodyOf, withJsonBody } from './json-edit.ts';
import type { Violation } from './types.ts';

export const BODY_FORM_VIOLATIONS: Violation[] = [
  {
    name: 'check-spaced-body-environment-default',
    description:
      "POST /capabilities with a body spaced over lines goes through the gateway's pretty-body path, which drops environment: the decision is made for the default, sandbox",
    section: 'POST /api/public/v1/capabilities',
    catches: ['requests.body-forms-alike'],
    async handle(req, next) {
      const text = req.body ? new TextDecoder().decode(req.body) : '';
      const body = jsonBodyOf(req);
      if (req.method !== 'POST' || req.path !== `${BASE_PATH}/capabilities` || !text.includes('\n') || !body)
        return next(req);
      const { environment: _dropped, ...rest } = body;
      return next(withJsonBody(req, rest));
    },
  },
  {
    name: 'audit-larger-page-proof-omitted',
    description:
      'GET /audit-log with a limit above 50 is served from the archive, which leaves out the proof of integrity (the entries keep their hashes)',
    section: 'GET /api/public/v1/audit-log (appears in a sample call only)',
    catches: ['audit.proof-shown', 'envelope.response-schema-openapi'],
    async handle(req, next) {
      const res = await next(req);
      if (req.method !== 'GET' || req.path !== `${BASE_PATH}/audit-log` || Number(req.query.limit) <= 50) return res;
      return editJson(res, (b) => void delete b.data?.proof);
    },
  },
  {
    name: 'alt-delivery-log-count-zero',
    description:
      "at the alternate address the delivery log's count is read from that region's own outbox, which is empty: count 0 beside the entries listed",
    section: 'Webhooks',
    where: 'alt',
    catches: ['webhooks.delivery-log'],
    async handle(req, next) {
      const res = await next(req);
      if (req.method !== 'GET' || !/\/webhooks\/[^/]+\/deliveries$/.test(req.path)) return res;
      return editJson(res, (b) => {
        if (b.data && Array.isArray(b.data.deliveries) && 'count' in b.data) b.data.count = 0;
      });
    },
  },
  {
    name: 'filter-value-with-apostrophe-refused',
    description:
      'a list filter whose value holds an apostrophe is refused 400 by the query guard (a value without one is taken, unknown values listing nothing)',
    section: 'Endpoints',
    catches: ['requests.filter-values-alike'],
    async handle(req, next) {
      const values = Object.values(req.query).flat();
      if (req.method === 'GET' && values.some((v) => v.includes("'")))
        return failureOf('invalid_request', 'query contains a forbidden character');
      return next(req);
    },
  },
  {
    name: 'scalar-body-coded-internal',
    description:
      'a POST whose body is a JSON string or number is refused 400, its error coded internal (the body guard throws on a non-object before validation)',
    section: 'Errors',
    catches: ['errors.code-status-pairing', 'errors.invalid-request', 'responses.code-status'],
    async handle(req, next) {
      const res = await next(req);
      const text = req.body ? new TextDecoder().decode(req.body).trim() : '';
      if (req.method !== 'POST' || res.status !== 400 || !/^["\d]/.test(text)) return res;
      return editJson(res, (b) => {
        if (b.error) b.error.code = 'internal';
      });
    },
  },
  {
    name: 'listed-scope-label-trimmed',
    description:
      "GET /connections lists each scopeLabel trimmed of blanks before and after (the list view's formatter), while the creation answered it as sent",
    section: 'GET /api/public/v1/connections',
    catches: ['generated.request-echo'],
    async handle(req, next) {
      const res = await next(req);
      if (req.method !== 'GET' || req.path !== `${BASE_PATH}/connections`) return res;
      return editJson(res, (b) => {
        for (const c of (b.data?.connections ?? []) as { scopeLabel?: unknown }[])
          if (typeof c.scopeLabel === 'string') c.scopeLabel = c.scopeLabel.trim();
      });
    },
  },
  {
    name: 'json-file-named-yaml',
    description:
      'every JSON description file is offered under a .yaml file name (the download handler takes the extension from the last format it served)',
    section: 'GET /api/public/v1/openapi.json',
    catches: ['openapi.yaml-matches-json'],
    async handle(req, next) {
      const res = await next(req);
      const disposition = res.headers['content-disposition'];
      if (!disposition || !/\.json"?$/.test(disposition) || !res.headers['content-type']?.includes('json')) return res;
      return {
        ...res,
        headers: { ...res.headers, 'content-disposition': disposition.replace(/\.json("?)$/, '.yaml$1') },
      };
    },
  },
  {
    name: 'second-tenant-label-apostrophe-refused',
    description:
      "for a tenant other than the first, POST /connections refuses a scopeLabel holding an apostrophe (that tenant's validator was written for slugs)",
    section: 'POST /api/public/v1/connections',
    catches: ['limits.free-text-accepted'],
    async handle(req, next, core) {
      const tenant = req.headers['x-service-tenant'];
      const label = jsonBodyOf(req)?.scopeLabel;
      if (req.method !== 'POST' || req.path !== `${BASE_PATH}/connections` || typeof label !== 'string')
        return next(req);
      if (!tenant || !label.includes("'") || tenant === (await defaultAccess(core)).tenant) return next(req);
      return failureOf('invalid_request', 'scopeLabel has characters that are not allowed');
    },
  },
];
