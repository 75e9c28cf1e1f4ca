/** OAuth scopes the simulator issues; the route table names the one each endpoint needs. */
export const SCOPES = {
  'catalog:read': 'Read providers, connectors and capabilities; check capabilities',
  'connections:read': 'List the tenant connections',
  'connections:write': 'Create connections and idempotency keys',
  'webhooks:read': 'List webhook receivers and their delivery log',
  'webhooks:write': 'Register webhook receivers and trigger redeliveries',
  'audit:read': 'Read the tenant audit log',
  'stream:read': 'Read the tenant feed of the status stream',
} as const;
export type Scope = keyof typeof SCOPES;
export const SCOPE_NAMES = Object.keys(SCOPES) as [Scope, ...Scope[]];
