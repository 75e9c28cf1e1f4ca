import { z } from 'zod';
import { Capability, Connector, Provider } from './catalog.ts';
import { Environment } from './environment.ts';
import { SCOPE_NAMES } from './scopes.ts';

const id = z.string().regex(/^[a-z0-9][a-z0-9._-]{1,119}$/, 'lower-case id of 2 to 120 characters');

export const FixtureConnector = Connector.extend({
  id,
  /** Capabilities the connector offers but that are not released in the named environments. */
  restrictedIn: z.partialRecord(Environment, z.array(z.string())).optional(),
});

export const FixtureClient = z.strictObject({
  id,
  name: z.string().min(2),
  type: z.enum(['confidential', 'public', 'service-account']),
  /** Invented sandbox secret; hashed on load and never echoed by the simulator. */
  secret: z.string().min(16).optional(),
  tenants: z.array(z.string()).min(1),
  scopes: z.array(z.enum(SCOPE_NAMES)).min(1),
  environment: Environment,
  purpose: z.string().min(2),
  owner: z.string().min(2),
  expiresAt: z.iso.datetime(),
  redirectUris: z.array(z.url()).optional(),
});
export type FixtureClient = z.infer<typeof FixtureClient>;

export const FixtureSet = z
  .strictObject({
    name: z.string(),
    description: z.string().optional(),
    providers: z.array(Provider.extend({ id })).min(1),
    connectors: z.array(FixtureConnector).min(1),
    capabilities: z.array(Capability.extend({ id })).min(1),
    tenants: z.array(z.strictObject({ id, name: z.string() })).min(1),
    persons: z
      .array(z.strictObject({ id, name: z.string(), email: z.email(), tenants: z.array(z.string()).min(1) }))
      .default([]),
    clients: z.array(FixtureClient).min(1),
    /** The client whose token `ncs serve` prints at start-up. */
    defaultClient: z.string(),
  })
  .superRefine((f, ctx) => {
    const providers = new Set(f.providers.map((p) => p.id));
    const capabilities = new Set(f.capabilities.map((c) => c.id));
    const tenants = new Set(f.tenants.map((t) => t.id));
    // Every id is looked up by value (a tenant header, a login_hint): a second entry with the same id or
    // e-mail would be silently shadowed by the first, so it is refused, named by its path.
    const unique = (list: { id: string }[], key: string, what: string, field: 'id' | 'email' = 'id') => {
      const seen = new Set<string>();
      list.forEach((item, i) => {
        const value = (item as Record<string, unknown>)[field];
        if (typeof value !== 'string') return;
        if (seen.has(value))
          ctx.addIssue({ code: 'custom', path: [key, i, field], message: `duplicate ${what} ${field} ${value}` });
        seen.add(value);
      });
    };
    unique(f.providers, 'providers', 'provider');
    unique(f.connectors, 'connectors', 'connector');
    unique(f.capabilities, 'capabilities', 'capability');
    unique(f.clients, 'clients', 'client');
    unique(f.tenants, 'tenants', 'tenant');
    unique(f.persons, 'persons', 'person');
    unique(f.persons, 'persons', 'person', 'email');
    f.connectors.forEach((c, i) => {
      if (!providers.has(c.providerId))
        ctx.addIssue({
          code: 'custom',
          path: ['connectors', i, 'providerId'],
          message: `unknown provider ${c.providerId}`,
        });
      for (const cap of [...c.capabilities, ...Object.values(c.restrictedIn ?? {}).flat()])
        if (!capabilities.has(cap))
          ctx.addIssue({ code: 'custom', path: ['connectors', i], message: `unknown capability ${cap}` });
    });
    for (const [key, list] of [
      ['clients', f.clients],
      ['persons', f.persons],
    ] as const)
      list.forEach((holder, i) => {
        for (const t of holder.tenants)
          if (!tenants.has(t))
            ctx.addIssue({ code: 'custom', path: [key, i, 'tenants'], message: `unknown tenant ${t}` });
      });
    if (!f.clients.some((c) => c.id === f.defaultClient))
      ctx.addIssue({ code: 'custom', path: ['defaultClient'], message: `no client named ${f.defaultClient}` });
  });
export type FixtureSet = z.infer<typeof FixtureSet>;
