// Violations that show only in forms clients commonly send and the kit's plain calls do not: headers the interface
// does not mention (a language preference, credentials on a public endpoint), a token shaped as a JWT, a name of
// digits only, a key ending in punctuation, a body whose members come in another order.
import { BASE_PATH } from '../../simulator/contract/versions.ts';
import { editJson, failureOf, jsonBodyOf, withJsonBody } from './json-edit.ts';
import type { Violation } from './types.ts';

const CONNECTIONS = `${BASE_PATH}/connections`;
const isGet = (req: { method: string; path: string }, path: string) => req.method === 'GET' && req.path === path;

export const CLIENT_FORM_VIOLATIONS: Violation[] = [
  {
    name: 'accept-language-catalog-untranslated-dropped',
    description:
      'GET /providers with a language preference other than English (Accept-Language: de) lists only the providers that have a translation (the first one): the localisation layer drops the others',
    section: 'GET /api/public/v1/providers',
    catches: ['requests.client-headers-alike'],
    async handle(req, next) {
      const res = await next(req);
      const lang = req.headers['accept-language'];
      if (!isGet(req, `${BASE_PATH}/providers`) || !lang || lang === '*' || /^en\b/i.test(lang)) return res;
      return editJson(res, (b) => {
        const data = b.data as { providers?: unknown[]; count?: unknown } | undefined;
        if (!Array.isArray(data?.providers)) return;
        data.providers = data.providers.slice(0, 1);
        data.count = data.providers.length;
      });
    },
  },
  {
    name: 'openapi-with-credentials-tenant-filtered',
    description:
      "GET openapi.json called with a bearer token is filtered to the operations the token's scopes name, which leave out the webhooks: an SDK that signs every call reads a description without them",
    section: 'GET /api/public/v1/openapi.json',
    catches: ['requests.client-headers-alike'],
    async handle(req, next) {
      const res = await next(req);
      if (!isGet(req, `${BASE_PATH}/openapi.json`) || !req.headers.authorization) return res;
      return editJson(res, (b) => {
        const paths = (b as { paths?: Record<string, unknown> }).paths;
        for (const p of Object.keys(paths ?? {})) if (p.includes('/webhooks') && paths) delete paths[p];
      });
    },
  },
  {
    name: 'long-bearer-token-refused-400',
    description:
      'a bearer token longer than 150 characters is refused 400 invalid_request by the gateway\'s header guard before the token is looked up: a JWT from another environment is "a request unsuitable", not "not signed in"',
    section: 'Errors',
    catches: ['auth.invalid-token'],
    mayCatch: ['responses.rate-limit-headers-uncounted'],
    async handle(req, next) {
      const token = /^Bearer (\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
      return token && token.length > 150 ? failureOf('invalid_request', 'Authorization header too long') : next(req);
    },
  },
  {
    name: 'digits-only-operation-refused',
    description:
      'POST /idempotency-keys refuses an operation of digits only with 400 (its validator was copied from the id rules, which forbid numeric ids), though operation is a name of length 2 to 80',
    section: 'POST /api/public/v1/idempotency-keys',
    catches: ['limits.free-text-accepted'],
    async handle(req, next) {
      const op = jsonBodyOf(req)?.operation;
      if (req.method === 'POST' && req.path === `${BASE_PATH}/idempotency-keys` && typeof op === 'string')
        if (/^\d+$/.test(op)) return failureOf('invalid_request', 'operation must not be numeric');
      return next(req);
    },
  },
  {
    name: 'webhook-key-ending-hyphen-refused',
    description:
      "POST /webhooks refuses an Idempotency-Key ending with '-' (the key check was written as a slug rule), though the pattern allows it anywhere",
    section: 'Limits',
    catches: ['webhooks.registration-forms'],
    async handle(req, next) {
      const key = req.headers['idempotency-key'];
      if (req.method === 'POST' && req.path === `${BASE_PATH}/webhooks` && key?.endsWith('-'))
        return failureOf('invalid_request', 'Idempotency-Key is not valid');
      return next(req);
    },
  },
  {
    name: 'creation-environment-read-by-position',
    description:
      'POST /connections reads environment only where it comes before scopeLabel in the body (a streaming parser that stops at the label): a body written the other way round creates a sandbox connection',
    section: 'POST /api/public/v1/connections',
    catches: ['connections.every-environment', 'generated.request-echo'],
    async handle(req, next) {
      const body = jsonBodyOf(req);
      if (req.method !== 'POST' || req.path !== CONNECTIONS || !body) return next(req);
      const keys = Object.keys(body);
      if (keys.indexOf('scopeLabel') < 0 || keys.indexOf('scopeLabel') > keys.indexOf('environment')) return next(req);
      return next(withJsonBody(req, { ...body, environment: 'sandbox' }));
    },
  },
];
