// The descriptions the deployment publishes: the self-description and the YAML form of the OpenAPI document.
import { TOKEN_TTL_S } from './access.ts';
import { CURRENT_VERSION, VERSIONS } from './http-kit.ts';
import { KEY_TTL_MS } from './idempotency.ts';
import { routes } from './routes.ts';
import type { Beech } from './state.ts';
import { DELIVERY_HEADER, EVENT_NAMES, SIGNATURE_HEADER } from './webhooks.ts';
// GET /api/public/v1: the routes of the interface, how to authenticate, idempotency rules, the webhook events
// and the audit log's Ed25519 public key (to verify each page's signature).

export function selfDescription(s: Beech, origin: string): Record<string, unknown> {
  return {
    service: 'Network Connections Service',
    surface: 'public',
    version: CURRENT_VERSION,
    versions: VERSIONS,
    authentication: {
      type: 'oauth2',
      flows: ['client_credentials'],
      tokenEndpoint: `${origin}/oauth/token`,
      metadata: `${origin}/.well-known/oauth-authorization-server`,
      tenantHeader: 'x-service-tenant',
      token_lifetime_seconds: TOKEN_TTL_S,
    },
    idempotency: {
      header: 'Idempotency-Key',
      pattern: '^[A-Za-z0-9._:-]{8,128}$',
      requiredOn: routes.filter((r) => r.key === 'required').map((r) => `${r.method} ${r.path}`),
      retention_seconds: KEY_TTL_MS / 1000,
    },
    routes: routes.map((r) => ({ method: r.method, path: r.path, purpose: r.purpose, auth: r.auth })),
    webhooks: {
      events: EVENT_NAMES,
      signatureHeader: SIGNATURE_HEADER,
      deliveryHeader: DELIVERY_HEADER,
      retries: s.options.maxRetries,
    },
    audit: {
      proof: 'Ed25519 page signature over entry digests (sha256)',
      keyId: s.auditKey.keyId,
      publicKey: s.auditKey.publicKeyPem,
    },
    rate_limit: { limit: s.options.rateLimit, period_seconds: s.options.windowMs / 1000 },
  };
}

// A small YAML emitter for the downloadable description (rswag writes swagger/<version>/openapi.yaml). Strings
// are always double-quoted JSON strings, so no YAML special value (yes, no, 1.0, ~) is misread.
function scalar(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return JSON.stringify(v);
  return String(v);
}

function isEmpty(v: unknown): boolean {
  return (Array.isArray(v) && v.length === 0) || (v !== null && typeof v === 'object' && Object.keys(v).length === 0);
}

function emit(v: unknown, indent: string, out: string[]): void {
  if (Array.isArray(v)) {
    for (const item of v) {
      if (item !== null && typeof item === 'object' && !isEmpty(item)) {
        const inner: string[] = [];
        emit(item, `${indent}  `, inner);
        const first = inner[0] ?? '';
        out.push(`${indent}- ${first.slice(indent.length + 2)}`, ...inner.slice(1));
      } else out.push(`${indent}- ${isEmpty(item) ? (Array.isArray(item) ? '[]' : '{}') : scalar(item)}`);
    }
    return;
  }
  for (const [k, val] of Object.entries(v as Record<string, unknown>)) {
    if (val === undefined) continue;
    const key = JSON.stringify(k);
    if (val !== null && typeof val === 'object' && !isEmpty(val)) {
      out.push(`${indent}${key}:`);
      emit(val, `${indent}  `, out);
    } else out.push(`${indent}${key}: ${isEmpty(val) ? (Array.isArray(val) ? '[]' : '{}') : scalar(val)}`);
  }
}

export function toYaml(doc: Record<string, unknown>): string {
  const out: string[] = [];
  emit(doc, '', out);
  return `---\n${out.join('\n')}\n`;
}
