// The catalog is one ("a catalog of providers, connectors and capabilities"): a connector names its provider
// by the provider's id, and offers capabilities the capability catalog lists. The interface states the fields,
// not the references between them, so a reference to nothing is a SHOULD: a provider renamed while its
// connectors keep the old id leaves `GET /connectors?providerId=<the listed id>` empty.
import type { Exchange } from '../client/http-client.ts';
import { defineCheck } from '../runner/check.ts';
import { listed } from './support/listed.ts';
import { successSamples } from './support/samples.ts';

type Item = Record<string, unknown>;
const listOf = (ex: Exchange | undefined, field: string): Item[] =>
  ((ex?.json as { data?: Record<string, unknown> } | undefined)?.data?.[field] as Item[] | undefined) ?? [];

export const catalogReferences = defineCheck({
  name: 'catalog.references',
  title:
    "every connector's providerId is the id of a listed provider, and its capabilities are in the capability catalog",
  severity: 'SHOULD',
  section: 'What the service does',
  tags: ['catalog'],
  mutating: false,
  requires: ['token'],
  async run(ctx) {
    const samples = await successSamples(ctx);
    const answer = (id: string) => samples.find((s) => s.route.id === id)?.ex;
    const connectorsEx = answer('listConnectors');
    const providers = new Set(listOf(answer('listProviders'), 'providers').map((p) => p.id));
    const capabilities = new Set(listOf(answer('listCapabilities'), 'capabilities').map((c) => c.id));
    const connectors = listOf(connectorsEx, 'connectors');
    if (!connectors.length || !providers.size) ctx.skip('the catalog lists no connectors or no providers to relate');
    const orphans = connectors.filter((c) => !providers.has(c.providerId)).map((c) => `${c.id} (${c.providerId})`);
    ctx.expect.that(orphans.length === 0, {
      expected: "every connector's providerId names a provider GET /providers lists",
      observed: `${orphans.length} of ${connectors.length} name none: ${listed(orphans, 5, ', ')}`,
      ...(connectorsEx ? { exchange: connectorsEx } : {}),
    });
    if (!capabilities.size) return;
    const unknown = connectors.flatMap((c) =>
      (Array.isArray(c.capabilities) ? c.capabilities : [])
        .filter((k) => !capabilities.has(k))
        .map((k) => `${c.id}: ${String(k)}`),
    );
    ctx.expect.that(unknown.length === 0, {
      expected: 'every capability a connector offers is in GET /capabilities',
      observed: `${unknown.length} are not: ${listed(unknown, 5, ', ')}`,
      ...(connectorsEx ? { exchange: connectorsEx } : {}),
    });
  },
});
