import { isDeepStrictEqual } from 'node:util';
import { ENVIRONMENTS } from '../../simulator/contract/environment.ts';
import type { Exchange } from '../client/http-client.ts';
import { type CheckContext, defineCheck } from '../runner/check.ts';
import { capabilityKinds } from './capability-kinds.ts';
import { requiredEverywhere } from './connections-required.ts';
import {
  CONNECTIONS_PATH,
  createLabelledConnection,
  freshKey,
  listConnections,
  listedEventually,
  postConnection,
  renewedBetween,
  requireCreationBase,
} from './support/connections.ts';
import { capabilityCheckRoute } from './support/error-probes.ts';
import { InterfaceConnection, zodIssues } from './support/interface-schemas.ts';
import { judgeAcceptedThere } from './support/places.ts';

function judgeConnection(ctx: CheckContext, value: unknown, where: string, ex: Exchange) {
  const parsed = InterfaceConnection.safeParse(value);
  ctx.expect.that(parsed.success, {
    expected: `${where} is a Connection with the interface's fields and types`,
    observed: parsed.error ? zodIssues(parsed.error) : '',
    exchange: ex,
  });
}

/** MUST (Connection): the creation answer and every listed connection carry the Connection fields. */
export const connectionSchema = defineCheck({
  name: 'connections.schema',
  title:
    'POST /connections answers data as a Connection, and GET /connections lists Connections (also right after a first creation)',
  severity: 'MUST',
  section: 'Connection',
  tags: ['connections', 'schema'],
  mutating: true,
  requires: ['token'],
  async run(ctx: CheckContext) {
    // A venue's name as people write it, HTML's metacharacters and a character beyond U+FFFF (four bytes in
    // UTF-8, which a three-byte "utf8" column cannot hold) included: it comes back as sent (the echo rules
    // judge it), not escaped for a page nor replaced (a label refused for them is sent again without them).
    const { ex, id } = await createLabelledConnection(ctx, 'schema', {}, ' & Söhne <Bar> "Deck" \u{1F37A}');
    ctx.require(id !== undefined, {
      expected: `POST ${CONNECTIONS_PATH()} with a valid body answers 200 with data.id`,
      exchange: ex,
    });
    judgeConnection(ctx, (ex.json as { data?: unknown }).data, `POST ${CONNECTIONS_PATH()}: data`, ex);
    // A fresh tenant lists nothing before the kit creates: listing after creation judges at least one entry.
    const list = await listedEventually(ctx, (cs) => cs.some((c) => c.id === id));
    const listed = list.connections.find((c) => c.id === id);
    ctx.expect.that(listed !== undefined, {
      expected: `GET ${CONNECTIONS_PATH()} lists the connection ${id} just created`,
      exchange: list.ex,
    });
    for (const [i, c] of list.connections.entries())
      judgeConnection(ctx, c, `GET ${CONNECTIONS_PATH()}: data.connections[${i}]`, list.ex);
  },
});

/** MUST (GET /connections: "data: tenant (string)"): the tenant is the one the call was made for. */
export const connectionsTenant = defineCheck({
  name: 'connections.tenant',
  title: 'GET /connections answers data.tenant equal to the x-service-tenant of the call',
  severity: 'MUST',
  section: 'GET /api/public/v1/connections',
  tags: ['connections', 'tenant'],
  mutating: false,
  requires: ['token'],
  async run(ctx: CheckContext) {
    const { ex } = await listConnections(ctx);
    const tenant = (ex.json as { data?: { tenant?: unknown } } | undefined)?.data?.tenant;
    ctx.expect.that(ex.status === 200 && tenant === ctx.target.tenant, {
      expected: `GET ${CONNECTIONS_PATH()} answers data.tenant ${ctx.target.tenant}`,
      observed: `status ${ex.status}, data.tenant ${JSON.stringify(tenant)}`,
      exchange: ex,
    });
  },
});

/** MUST (Environment (enumeration)): a value outside development, sandbox, pilot, production is refused. */
export const environmentEnumeration = defineCheck({
  name: 'connections.environment-enumeration',
  title:
    'an environment outside the enumeration answers 400 invalid_request on POST /connections and POST /capabilities',
  severity: 'MUST',
  section: 'Environment (enumeration)',
  tags: ['connections', 'validation'],
  mutating: true,
  requires: ['token'],
  async run(ctx: CheckContext) {
    const base = await requireCreationBase(ctx);
    const ex = await postConnection(ctx, { ...base, environment: 'staging', scopeLabel: ctx.label('environment') });
    ctx.expect.errorCode(
      ex,
      'invalid_request',
      `POST ${CONNECTIONS_PATH()} with environment "staging" answers 400 invalid_request`,
    );
    const check = await ctx.call('POST', capabilityCheckRoute().path, {
      json: { connectorId: base.connectorId, capability: base.capabilities[0], environment: 'staging' },
    });
    ctx.expect.errorCode(
      check,
      'invalid_request',
      'POST /capabilities with environment "staging" answers 400 invalid_request',
    );
    // An empty string is a value too, outside the enumeration: not the field left out ("default sandbox").
    const empty = await ctx.call('POST', capabilityCheckRoute().path, {
      json: { connectorId: base.connectorId, capability: base.capabilities[0], environment: '' },
    });
    ctx.expect.errorCode(
      empty,
      'invalid_request',
      'POST /capabilities with environment "" (a value outside the enumeration, not the field left out) answers 400 invalid_request',
    );
    const blank = await postConnection(ctx, { ...base, environment: '', scopeLabel: ctx.label('environment') });
    ctx.expect.errorCode(
      blank,
      'invalid_request',
      `POST ${CONNECTIONS_PATH()} with environment "" answers 400 invalid_request`,
    );
  },
});

/**
 * MUST (Overview: "A connection binds a connector to an environment"; POST /connections: environment is an
 * Environment): a creation in each other environment value answers a Connection of that environment, and
 * the run's rules judge those answers' envelopes as every other. A refusal is the deployment's choice (a
 * sandbox may not bind production, "Production data must never be copied into the sandbox"): noted.
 */
export const everyEnvironment = defineCheck({
  name: 'connections.every-environment',
  title:
    'POST /connections in each environment value answers a Connection bound to that environment (replayed under its key as anywhere), or a refusal in the failure envelope; a capability check without environment right after them is still decided for sandbox',
  severity: 'MUST',
  section: 'POST /api/public/v1/connections',
  tags: ['connections'],
  mutating: true,
  requires: ['token'],
  async run(ctx: CheckContext) {
    const base = await requireCreationBase(ctx);
    const others = ENVIRONMENTS.filter((e) => e !== base.environment);
    // Written with the members in reverse order (scopeLabel before environment): a JSON object is the same
    // whatever the order of its members (RFC 8259 §4), and the other checks' creations all lead with connectorId.
    const reversed = (b: Record<string, unknown>) => Object.fromEntries(Object.entries(b).reverse());
    const sent = others.map((environment) => ({
      body: reversed({ ...base, environment, scopeLabel: ctx.label(`env-${environment}`) }),
      key: freshKey(ctx),
    }));
    const answers = await Promise.all(sent.map((c) => postConnection(ctx, c.body, { key: c.key })));
    let created = 0;
    for (const [i, ex] of answers.entries()) {
      const environment = others[i];
      if (ex.status !== 200) {
        const code = (ex.json as { error?: { code?: unknown } } | undefined)?.error?.code;
        ctx.note(
          `environment ${environment}: refused with ${ex.status} ${typeof code === 'string' ? code : ''}`.trim(),
        );
        continue;
      }
      created++;
      const data = (ex.json as { data?: { environment?: unknown } } | undefined)?.data;
      ctx.expect.that(data?.environment === environment, {
        expected: `POST ${CONNECTIONS_PATH()} with environment "${environment}" answers a Connection with environment "${environment}"`,
        observed: `data.environment ${JSON.stringify(data?.environment)}`,
        exchange: ex,
      });
      // Repeat-safe in every environment: the same key and content again is the same response, marked replayed.
      const c = sent[i];
      if (!c) continue;
      const again = await postConnection(ctx, c.body, { key: c.key });
      const replayed = (again.json as { meta?: { replayed?: unknown } } | undefined)?.meta?.replayed;
      const againId = (again.json as { data?: { id?: unknown } } | undefined)?.data?.id;
      // A token renewed between the two (short-lived tokens) is another access: where keys are scoped per access
      // (not shown; zelkova's choice), the key sent again is a new one there, and nothing is judged.
      if (renewedBetween(ex, again) && replayed !== true) {
        ctx.note(`the creation in ${environment} was sent again with a renewed token: its replay not judged`);
        continue;
      }
      ctx.expect.that(
        again.status === 200 &&
          replayed === true &&
          isDeepStrictEqual(againId, (ex.json as { data?: { id?: unknown } } | undefined)?.data?.id),
        {
          expected: `the creation in ${environment} sent again with its key answers the same connection with meta.replayed true`,
          observed: `status ${again.status}, meta.replayed ${JSON.stringify(replayed)}, data.id ${JSON.stringify(againId)}`,
          exchange: again,
        },
      );
      await defaultRightAfter(ctx, base, String(environment));
    }
    if (created === 0) ctx.skip(`every other environment value (${others.join(', ')}) was refused: nothing to judge`);
    // The second tenant's creation in each environment the first tenant's was taken in: a refusal of its access
    // or catalog there is that tenant's own (401, 403, 404), a 400 for the environment is not.
    const other = ctx.target.otherTenant;
    if (!other) return;
    const taken = others.filter((_, i) => answers[i]?.status === 200);
    const there = await Promise.all(
      taken.map((environment) =>
        postConnection(ctx, { ...base, environment, scopeLabel: ctx.label(`env-${environment}`) }, { tenant: other }),
      ),
    );
    for (const [i, ex] of there.entries())
      judgeAcceptedThere(
        ctx,
        ex,
        true,
        `POST ${CONNECTIONS_PATH()} for tenant ${other} with environment "${taken[i]}"`,
      );
  },
});

/**
 * The default is the interface's, not the last write's: a capability check without environment right after a
 * creation in `environment` is decided for sandbox (a session keeping "the current environment" of its last creation
 * answers that one). A refusal is the capability checks' to judge: noted.
 */
async function defaultRightAfter(
  ctx: CheckContext,
  base: { connectorId: string; capabilities: string[] },
  environment: string,
) {
  const path = capabilityCheckRoute().path;
  const check = await ctx.call('POST', path, {
    json: { connectorId: base.connectorId, capability: base.capabilities[0] },
  });
  const decided = (check.json as { data?: { environment?: unknown } } | undefined)?.data?.environment;
  if (check.status !== 200)
    return ctx.note(`the capability check right after the creation in ${environment} answered ${check.status}`);
  ctx.expect.that(decided === 'sandbox', {
    expected: `POST ${path} without environment, right after a creation in ${environment}, answers data.environment "sandbox" ("default sandbox")`,
    observed: `data.environment ${JSON.stringify(decided)}`,
    exchange: check,
  });
}

export const connectionChecks = [
  connectionSchema,
  connectionsTenant,
  environmentEnumeration,
  everyEnvironment,
  requiredEverywhere,
  capabilityKinds,
];
