// Building blocks of magnolia's OpenAPI document: schema helpers, the contract's resource schemas
// (components.schemas), and the YAML rendering used by the per-version download.

export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
export const str = (min?: number, max?: number) => ({
  type: 'string',
  ...(min ? { minLength: min } : {}),
  ...(max ? { maxLength: max } : {}),
});
export const obj = (
  properties: Record<string, unknown>,
  required: string[] = [],
  extra: Record<string, unknown> = {},
) => ({
  type: 'object',
  properties,
  required,
  ...extra,
});
export const list = (key: string, item: string) =>
  obj({ count: { type: 'integer' }, [key]: { type: 'array', items: ref(item) } }, ['count', key]);
export const ENV = ref('Environment');
export const anyObj = { type: 'object' };

/** The contract's resources as JSON Schema 2020-12 (the field tables of interface.md, required as marked). */
export function schemas(): Record<string, unknown> {
  const cap = obj({ capability: str(), critical: { type: 'boolean' }, idempotencyRequired: { type: 'boolean' } }, [
    'capability',
    'critical',
    'idempotencyRequired',
  ]);
  return {
    Environment: { type: 'string', enum: ['development', 'sandbox', 'pilot', 'production'] },
    Meta: obj(
      {
        requestId: str(),
        version: str(),
        at: { type: 'string', format: 'date-time' },
        idempotencyKey: str(),
        replayed: { type: 'boolean' },
      },
      ['requestId', 'version', 'at'],
    ),
    Failure: obj(
      {
        ok: { const: false },
        error: obj({ code: str(), message: str(), detail: str(), hint: str() }, ['code', 'message']),
        meta: ref('Meta'),
      },
      ['ok', 'error', 'meta'],
    ),
    Provider: obj({ id: str(), name: str(), category: str(), summary: str() }, ['id', 'name', 'category', 'summary']),
    Connector: obj(
      { id: str(), providerId: str(), name: str(), category: str(), capabilities: { type: 'array', items: str() } },
      ['id', 'providerId', 'name', 'category', 'capabilities'],
    ),
    Capability: obj(
      { id: str(), label: str(), critical: { type: 'boolean' }, idempotencyRequired: { type: 'boolean' } },
      ['id', 'label', 'critical', 'idempotencyRequired'],
    ),
    CapabilityDecision: obj(
      {
        connectorId: str(),
        capability: str(),
        allowed: { type: 'boolean' },
        critical: { type: 'boolean' },
        idempotencyRequired: { type: 'boolean' },
        reason: str(),
      },
      ['connectorId', 'capability', 'allowed', 'critical', 'idempotencyRequired', 'reason'],
    ),
    Connection: obj(
      {
        id: str(),
        connectorId: str(),
        environment: ENV,
        scopeLabel: str(),
        state: str(),
        capabilities: { type: 'array', items: cap },
        nextStep: str(),
        createdAt: { type: 'string', format: 'date-time' },
      },
      ['id', 'connectorId', 'environment', 'scopeLabel', 'state', 'capabilities', 'nextStep', 'createdAt'],
    ),
    RouteInfo: obj({ method: str(), path: str(), purpose: str(), auth: { type: 'boolean' } }, [
      'method',
      'path',
      'purpose',
      'auth',
    ]),
  };
}

/** YAML block style; every scalar string double-quoted (JSON escapes are valid YAML escapes). */
export function toYaml(v: unknown, indent = ''): string {
  if (Array.isArray(v)) {
    if (v.length === 0) return ' []';
    return v.map((x) => `\n${indent}-${toYaml(x, `${indent}  `).replace(/^\n\s*/, ' ')}`).join('');
  }
  if (v !== null && typeof v === 'object') {
    const entries = Object.entries(v);
    if (entries.length === 0) return ' {}';
    return entries.map(([k, x]) => `\n${indent}${JSON.stringify(k)}:${toYaml(x, `${indent}  `)}`).join('');
  }
  return ` ${JSON.stringify(v)}`;
}
