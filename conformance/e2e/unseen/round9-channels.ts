import { createHmac } from 'node:crypto';
import type { UnseenViolation } from './proxy.ts';
import { P } from './proxy-helpers.ts';

/**
 * Round 9 of the unseen violations, part 3: the published description's constraints, the route flags
 * of the self-description, the stream's delivery count and the signature's encoding.
 */
type Rec = Record<string, any>;
const isOpenApi = (path: string) => path === P('/openapi.json');
/** Visits every object of a document. */
const walk = (x: unknown, f: (o: Rec) => void) => {
  if (!x || typeof x !== 'object') return;
  f(x as Rec);
  for (const v of Object.values(x as Rec)) walk(v, f);
};

export const ROUND9_CHANNELS: UnseenViolation[] = [
  {
    name: 'openapi-cursor-minimum-one',
    statement: 'Limits: cursor | integer, minimum 0 (GET /stream: cursor, integer, minimum 0)',
    answer(c, a) {
      if (!isOpenApi(c.path)) return;
      walk(a.json, (o) => {
        if (o.name === 'cursor' && o.schema && typeof o.schema === 'object') o.schema.minimum = 1;
      });
    },
  },
  {
    name: 'openapi-scope-label-max-255',
    statement: 'Limits: scopeLabel | length 2 to 120',
    answer(c, a) {
      if (!isOpenApi(c.path)) return;
      walk(a.json, (o) => {
        if (o.scopeLabel && typeof o.scopeLabel === 'object' && 'maxLength' in o.scopeLabel)
          o.scopeLabel.maxLength = 255;
      });
    },
  },
  {
    name: 'openapi-operation-max-120',
    statement: 'Limits: operation in idempotency key creation | length 2 to 80',
    answer(c, a) {
      if (!isOpenApi(c.path)) return;
      walk(a.json, (o) => {
        if (o.operation && typeof o.operation === 'object' && 'maxLength' in o.operation) o.operation.maxLength = 120;
      });
    },
  },
  {
    name: 'openapi-check-environment-required',
    statement: 'POST /api/public/v1/capabilities: environment | string | no | Environment; default sandbox',
    answer(c, a) {
      if (!isOpenApi(c.path)) return;
      walk(a.json, (o) => {
        if (
          o.properties?.connectorId &&
          o.properties?.capability &&
          !o.properties?.scopeLabel &&
          Array.isArray(o.required)
        )
          if (!o.required.includes('environment')) o.required.push('environment');
      });
    },
  },
  {
    name: 'self-description-audit-log-public',
    statement: 'Endpoints: GET | /api/public/v1/audit-log | yes | audit log (RouteInfo: auth boolean)',
    answer(c, a) {
      if (c.method !== 'GET' || c.path !== P('') || !Array.isArray(a.json.data?.routes)) return;
      for (const r of a.json.data.routes as Rec[]) if (String(r.path).endsWith('/audit-log')) r.auth = false;
    },
  },
  {
    name: 'stream-every-third-message-twice',
    statement: 'Events: Every message carries a consecutive number and arrives exactly once.',
    stream(_c, lines) {
      // A fan-out bug writes messages whose number is a multiple of 3 to the connection twice.
      return lines.replace(/(?:^|(?<=\n\n))((?:[^\n]+\n)+)\n/g, (m, block: string) => {
        const n = Number(/^id:[ \t]*(\d+)/m.exec(block)?.[1] ?? 0);
        return n > 0 && n % 3 === 0 ? `${block}\n${block}\n` : m;
      });
    },
  },
  {
    name: 'signature-base64',
    statement:
      'Webhooks: The signature is an HMAC with SHA-256, keyed with the signing key, over the text <t>, a dot, and the unchanged raw request body, written as lowercase hex.',
    sign(body, secret, t) {
      const sig = createHmac('sha256', secret).update(`${t}.${body}`).digest('base64');
      return `t=${t},v1=${sig}`;
    },
  },
  {
    name: 'signature-v1-algorithm-prefixed',
    statement: 'Webhooks: Signature rule: the header value has the form t=<unix-seconds>,v1=<hex-signature>.',
    sign(body, secret, t) {
      const sig = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
      return `t=${t},v1=sha256=${sig}`;
    },
  },
];
