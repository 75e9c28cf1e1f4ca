// Violations of one place's normaliser or serializer: the alternate address, the second tenant or the earlier
// version reads or writes a value its own way (a gateway folding case, a search index, an older serializer).
// The main address for the first tenant under the current version stays right.
import { stringify } from 'yaml';
import { BASE_PATH, CURRENT_VERSION, SUPPORTED_VERSIONS } from '../../simulator/contract/versions.ts';
import { defaultAccess } from './default-access.ts';
import { everyObject } from './document-edit.ts';
import { editJson, failureOf, jsonBodyOf, withJsonBody } from './json-edit.ts';
import type { Violation } from './types.ts';

const CONNECTIONS = `${BASE_PATH}/connections`;
const CHECKS = `${BASE_PATH}/capabilities`;
const EARLIER = SUPPORTED_VERSIONS[1] ?? '2026-06-12';
const VERSION_FILE = `${BASE_PATH}/openapi/${CURRENT_VERSION}`;

type Body = Record<string, unknown>;
const bodyOf = (req: Parameters<typeof jsonBodyOf>[0]): Body | undefined => jsonBodyOf(req);
const checkOrCreate = (req: { method: string; path: string }) =>
  req.method === 'POST' && (req.path === CONNECTIONS || req.path === CHECKS);

export const NORMALISER_VIOLATIONS: Violation[] = [
  {
    name: 'alt-environment-case-folded',
    description:
      "at the alternate address a capability check and a creation take an environment in other letter case (Sandbox), folded to lower case (that region's gateway lower-cases enum values before validating)",
    section: 'Resources and their fields',
    where: 'alt',
    catches: ['generated.probes-check-capability', 'generated.probes-create-connection'],
    async handle(req, next) {
      const body = bodyOf(req);
      const env = body?.environment;
      const routed = checkOrCreate(req);
      if (!routed || !body || typeof env !== 'string' || env === env.toLowerCase()) return next(req);
      return next(withJsonBody(req, { ...body, environment: env.toLowerCase() }));
    },
  },
  {
    name: 'earlier-version-audit-without-proof',
    description:
      "the audit log asked with Service-Version 2026-06-12 answers its entries without any proof (that version's serializer predates the hash chain)",
    section: 'GET /api/public/v1/audit-log (appears in a sample call only)',
    catches: ['audit.proof-shown'],
    async handle(req, next) {
      const res = await next(req);
      const earlier = req.headers['service-version'] === EARLIER;
      if (!earlier || req.method !== 'GET' || req.path !== `${BASE_PATH}/audit-log` || res.status !== 200) return res;
      return editJson(res, (b) =>
        everyObject(b.data, (node) => {
          for (const k of Object.keys(node)) if (/hash|proof|chain|signature/i.test(k)) delete node[k];
        }),
      );
    },
  },
  {
    name: 'second-tenant-capability-count-off',
    description:
      "for a tenant other than the first, GET /capabilities counts one more capability than it lists (that tenant's count query includes a retired one)",
    section: 'GET /api/public/v1/capabilities',
    catches: ['generated.count-agreement'],
    async handle(req, next, core) {
      const res = await next(req);
      const tenant = req.headers['x-service-tenant'];
      const mine = tenant === (await defaultAccess(core)).tenant;
      if (!tenant || mine || req.method !== 'GET' || req.path !== `${BASE_PATH}/capabilities` || res.status !== 200)
        return res;
      return editJson(res, (b) => {
        const data = b.data as { count?: unknown } | undefined;
        if (data && typeof data.count === 'number') data.count += 1;
      });
    },
  },
  {
    name: 'alt-connector-id-case-folded',
    description:
      "at the alternate address a capability check and a creation match a connector id in any letter case (that region's gateway lower-cases ids), where the main address answers 404",
    section: 'Errors',
    where: 'alt',
    catches: ['generated.alt-operations-alike'],
    async handle(req, next) {
      const body = bodyOf(req);
      const id = body?.connectorId;
      const routed = checkOrCreate(req);
      if (!routed || !body || typeof id !== 'string' || id === id.toLowerCase()) return next(req);
      return next(withJsonBody(req, { ...body, connectorId: id.toLowerCase() }));
    },
  },
  {
    name: 'alt-list-filters-case-folded',
    description:
      "at the alternate address GET /providers and GET /connectors match their filters in any letter case (that region's search index folds case), where the main address lists nothing",
    section: 'GET /api/public/v1/connectors',
    where: 'alt',
    catches: ['generated.alt-operations-alike'],
    async handle(req, next) {
      if (req.method !== 'GET' || ![`${BASE_PATH}/providers`, `${BASE_PATH}/connectors`].includes(req.path))
        return next(req);
      const query = Object.fromEntries(
        Object.entries(req.query).map(([k, v]) => [k, typeof v === 'string' ? v.toLowerCase() : v]),
      );
      return next({ ...req, query });
    },
  },
  {
    name: 'earlier-version-environment-case-folded',
    description:
      "with Service-Version 2026-06-12 a capability check and a creation take an environment in other letter case (Production), folded to lower case (that version's request model reads enums case-insensitively)",
    section: 'Resources and their fields',
    catches: ['generated.probes-check-capability', 'generated.probes-create-connection'],
    async handle(req, next) {
      const body = bodyOf(req);
      const env = body?.environment;
      if (req.headers['service-version'] !== EARLIER || !checkOrCreate(req) || !body || typeof env !== 'string')
        return next(req);
      return next(withJsonBody(req, { ...body, environment: env.toLowerCase() }));
    },
  },
  {
    name: 'current-version-file-stale',
    description: `the self-description names downloadable files of version ${CURRENT_VERSION} (…/openapi/${CURRENT_VERSION}.json and .yaml), both built from an older schema giving scopeLabel at most 100 characters where openapi.json says 120`,
    section: 'GET /api/public/v1/openapi.json',
    catches: ['openapi.yaml-matches-json', 'requests.other-forms-as-route'],
    async handle(req, next) {
      const file = /^(?:json|yaml)$/.exec(req.path.slice(`${VERSION_FILE}.`.length))?.[0];
      if (req.method === 'GET' && req.path.startsWith(`${VERSION_FILE}.`) && file) {
        const res = await next({ ...req, path: `${BASE_PATH}/openapi.json` });
        if (res.status !== 200 || res.body === undefined) return res;
        const doc = JSON.parse(res.body) as Body;
        everyObject(doc, (node) => {
          const label = (node.properties as Body | undefined)?.scopeLabel as Body | undefined;
          if (label?.maxLength === 120) label.maxLength = 100;
        });
        if (file === 'json') return { ...res, body: JSON.stringify(doc) };
        return { ...res, headers: { ...res.headers, 'content-type': 'application/yaml' }, body: stringify(doc) };
      }
      const res = await next(req);
      if (req.method !== 'GET' || req.path !== BASE_PATH || res.status !== 200) return res;
      // Named among the self-description's values (not its routes: openapi.json does not document them).
      return editJson(res, (b) => {
        if (b.data) b.data.downloads = { json: `${VERSION_FILE}.json`, yaml: `${VERSION_FILE}.yaml` };
      });
    },
  },
  {
    name: 'audit-older-page-head-is-chain-head',
    description:
      "an audit log page asked for past the newest one (the log's next page) states the whole chain's head as its own headHash (the proof builder reads the head cache), so its proof no longer verifies; the first page is right",
    section: 'GET /api/public/v1/audit-log (appears in a sample call only)',
    catches: ['audit.integrity', 'audit.signature'],
    async handle(req, next) {
      const res = await next(req);
      const later = Object.keys(req.query).some((k) => k !== 'limit');
      if (req.method !== 'GET' || req.path !== `${BASE_PATH}/audit-log` || !later || res.status !== 200) return res;
      return editJson(res, (b) => {
        const proof = (b.data as { proof?: Body } | undefined)?.proof;
        const head = (proof?.chainHead as Body | undefined)?.hash;
        if (proof && typeof head === 'string') proof.headHash = head;
      });
    },
  },
  {
    name: 'second-tenant-filters-case-folded',
    description:
      "for a tenant other than the first, GET /providers and GET /connectors match their filters in any letter case (that tenant's search index folds case), where the first tenant's lists nothing",
    section: 'GET /api/public/v1/connectors',
    catches: ['generated.tenants-match-alike'],
    async handle(req, next, core) {
      const tenant = req.headers['x-service-tenant'];
      const listed = [`${BASE_PATH}/providers`, `${BASE_PATH}/connectors`].includes(req.path);
      if (req.method !== 'GET' || !listed || !tenant || tenant === (await defaultAccess(core)).tenant) return next(req);
      const query = Object.fromEntries(
        Object.entries(req.query).map(([k, v]) => [k, typeof v === 'string' ? v.toLowerCase() : v]),
      );
      return next({ ...req, query });
    },
  },
  {
    name: 'charset-accept-double-envelope',
    description:
      'a JSON call whose Accept carries a charset (application/json; charset=utf-8) is answered with the whole envelope again inside data (a gateway re-wrapping what it takes for a foreign media type)',
    section: 'Success envelope (every JSON success response)',
    catches: ['generated.contract-data'],
    async handle(req, next) {
      const res = await next(req);
      if (!/charset/i.test(req.headers.accept ?? '') || res.status !== 200 || !req.path.startsWith(`${BASE_PATH}/`))
        return res;
      return editJson(res, (b) => {
        if (b.ok === true && b.data) b.data = { ok: true, data: b.data, meta: b.meta };
      });
    },
  },
  {
    name: 'openapi-oai-accept-served-3-0',
    description:
      "GET openapi.json asked with OpenAPI's own media type (Accept: application/vnd.oai.openapi+json) answers a 3.0.3 rendering of the description",
    section: 'GET /api/public/v1/openapi.json',
    catches: ['openapi.accept-alike'],
    async handle(req, next) {
      const res = await next(req);
      if (req.path !== `${BASE_PATH}/openapi.json` || !/vnd\.oai\.openapi/.test(req.headers.accept ?? '')) return res;
      if (res.status !== 200 || res.body === undefined) return res;
      return { ...res, body: JSON.stringify({ ...(JSON.parse(res.body) as Body), openapi: '3.0.3' }) };
    },
  },
  {
    name: 'earlier-file-named-current',
    description: `the description files of version ${EARLIER} (openapi.json and openapi.yaml with ?version=${EARLIER}) are offered under file names of ${CURRENT_VERSION} (Content-Disposition), so a saved copy passes for the current description`,
    section: 'GET /api/public/v1/openapi.json',
    catches: ['openapi.yaml-matches-json'],
    async handle(req, next) {
      const res = await next(req);
      const file = req.path === `${BASE_PATH}/openapi.json` || req.path === `${BASE_PATH}/openapi.yaml`;
      const disposition = res.headers['content-disposition'];
      if (!file || req.query.version !== EARLIER || typeof disposition !== 'string') return res;
      return {
        ...res,
        headers: { ...res.headers, 'content-disposition': disposition.replaceAll(EARLIER, CURRENT_VERSION) },
      };
    },
  },
  {
    name: 'second-tenant-environment-case-folded',
    description:
      "for a tenant other than the first, a capability check and a creation take an environment in other letter case, folded to lower case (that tenant's request model is configured case-insensitive)",
    section: 'Resources and their fields',
    catches: ['generated.probes-check-capability', 'generated.probes-create-connection'],
    async handle(req, next, core) {
      const tenant = req.headers['x-service-tenant'];
      const body = bodyOf(req);
      const env = body?.environment;
      if (!tenant || !checkOrCreate(req) || !body || typeof env !== 'string') return next(req);
      if (tenant === (await defaultAccess(core)).tenant) return next(req);
      return next(withJsonBody(req, { ...body, environment: env.toLowerCase() }));
    },
  },
  {
    name: 'earlier-version-limits-one-narrower',
    description:
      'with Service-Version 2026-06-12 a capability check is refused where its connectorId or capability has the minimum or maximum length (that version validates 3 to 119 characters where the limits say 2 to 120)',
    section: 'Limits',
    catches: ['generated.probes-check-capability', 'limits.capability-length', 'limits.connector-id-length'],
    async handle(req, next) {
      const body = bodyOf(req);
      const check = req.method === 'POST' && req.path === CHECKS;
      if (req.headers['service-version'] !== EARLIER || !check || !body) return next(req);
      const texts = ['connectorId', 'capability', 'scopeLabel']
        .map((k) => body[k])
        .concat(Array.isArray(body.capabilities) ? body.capabilities : []);
      if (texts.some((t) => typeof t === 'string' && (t.length <= 2 || t.length >= 120)))
        return failureOf('invalid_request', 'text fields: 3 to 119 characters.');
      return next(req);
    },
  },
];
