import { ERROR_TABLE } from '../../simulator/contract/errors.ts';
import { LIMITS } from '../../simulator/contract/limits.ts';
import { listConnections } from '../checks/support/connections.ts';
import { earlierVersionPlace } from '../checks/support/places.ts';
import type { Exchange } from '../client/http-client.ts';
import { inBatches } from '../rules/interface-routes.ts';
import { type CheckContext, type CheckDef, defineCheck } from '../runner/check.ts';
import type { InterfaceSection } from '../runner/sections.ts';
import { altSample } from './alt-probes.ts';
import { hasProbes, type Probe, probesOf } from './probes.ts';
import { type Operation, operations } from './request-fields.ts';
import { recordRefused } from './trace.ts';
import { validCalls } from './valid-calls.ts';

const RATE_LIMITED = ERROR_TABLE.rate_limited.status;

const kebab = (id: string) => id.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** The probes of one operation sent at once, at most this many (polite to a shared staging target). */
const WIDTH = 2;

/** The generated texts of this run start with this, so a stored one can be recognised. */
export const probeMarker = (ctx: CheckContext) => `ncs-conformance-${ctx.runId}-`;

async function send(
  ctx: CheckContext,
  op: Operation,
  p: Probe,
  base: 'main' | 'alt' = 'main',
  tenant?: string,
): Promise<{ ex: Exchange; isStream?: boolean }> {
  const credentials = op.route.auth ? 'token' : 'none';
  if ((op.route.kind ?? 'json') === 'sse') {
    const s = await ctx.stream(op.route.path, { credentials, query: p.query, headers: p.headers });
    await s.close();
    return { ex: s.ex, isStream: s.isStream };
  }
  const ex = await ctx.call(op.route.method, op.route.path, {
    base,
    ...(tenant ? { tenant } : {}),
    credentials,
    query: p.query,
    headers: p.headers,
    ...(p.rawBody !== undefined ? { body: p.rawBody } : p.body !== undefined ? { json: p.body } : {}),
  });
  return { ex };
}

/**
 * A list of one value repeated, sent as a valid number of items and refused 400: the contract's "set of
 * capabilities" may be read as items without repeats. Two of the same value, refused alike, say the
 * refusal is about the repeats, not the number: no verdict (noted). Two accepted: the number was refused.
 */
async function refusesRepeats(ctx: CheckContext, op: Operation, p: Probe, ex: Exchange): Promise<boolean> {
  if (!p.expect.accepted || ex.status !== 400 || !p.body) return false;
  const list = p.body[p.field];
  if (!Array.isArray(list) || list.length < 2 || !list.every((x) => x === list[0])) return false;
  // A key of its own: the same key with other content would be a conflict, not an answer about the list.
  const key = p.headers['Idempotency-Key'];
  const headers = key ? { ...p.headers, 'Idempotency-Key': `${key.slice(0, 120)}.pair` } : p.headers;
  const pair = { ...p, id: `${p.id}.pair`, headers, body: { ...p.body, [p.field]: [list[0], list[0]] } };
  if (typeof pair.body.scopeLabel === 'string') pair.body.scopeLabel = `${pair.body.scopeLabel}-pair`.slice(0, 120);
  const again = await send(ctx, op, pair);
  if (again.ex.status !== 400) return false;
  ctx.note(
    `${op.route.method} ${op.route.path} refuses a list repeating one value (${p.field}: two of the same, 400), a set's reading: ${p.id} (${list.length} repeats) not judged`,
  );
  return true;
}

/** The probes sent again: at the alternate address, and under the earlier version where it is served. */
async function placedProbes(
  ctx: CheckContext,
  probes: readonly Probe[],
): Promise<{ probe: Probe; base: 'main' | 'alt'; tenant?: string }[]> {
  const alt = ctx.target.altBaseUrl
    ? altSample(probes, ctx.seed).map((probe) => ({ probe, base: 'alt' as const }))
    : [];
  const earlier = (await earlierVersionPlace(ctx)).flatMap((place) =>
    altSample(probes, ctx.seed, { what: place.what, tag: 'earlier' }).map((probe) => ({
      probe: { ...probe, headers: { ...probe.headers, ...place.call.headers } },
      base: 'main' as const,
    })),
  );
  const other = ctx.target.otherTenant;
  const theirs = other
    ? altSample(probes, ctx.seed, { what: `for tenant ${other}`, tag: 'tenant' }).map((probe) => ({
        probe,
        base: 'main' as const,
        tenant: other,
      }))
    : [];
  return [...alt, ...earlier, ...theirs];
}

/** The statuses of the Endpoints table other than 400 and 500: answers a request that passed validation may get. */
const PAST_VALIDATION: ReadonlySet<number> = new Set([401, 403, 404, 409, 428, 429]);

function judge(ctx: CheckContext, p: Probe, ex: Exchange, isStream?: boolean) {
  const repro = `probe ${p.id} (seed ${ctx.seed})`;
  // Past validation: a success, or one of the other statuses the Endpoints table lets an endpoint answer (a
  // refusal of the access, the entry, the capability or the rate). A status outside it (a gateway's 414 or 413)
  // is no answer of the interface: an `either` probe is then held to 400 invalid_request.
  const passed = isStream ?? ((ex.status >= 200 && ex.status < 300) || PAST_VALIDATION.has(ex.status));
  if (p.expect.accepted === true) ctx.expect.that(passed, { expected: `${p.rule} [${repro}]`, exchange: ex });
  else if (p.expect.accepted === false || !passed) ctx.expect.errorCode(ex, p.expect.code, `${p.rule} [${repro}]`);
}

/**
 * After refused creations: no connection carries a refused call's scope label, and no connection
 * created meanwhile breaks the creation limits (only a refused probe could have written it).
 */
/**
 * A string's length in characters (code points). The interface does not say what a length counts: Java's
 * and JavaScript's count UTF-16 units, in which a character outside the Basic Multilingual Plane is two.
 * A label breaks the limits only when it does by either count.
 */
const characters = (text: string) => Array.from(text).length;

async function nothingWritten(ctx: CheckContext, before: Set<unknown>, refusedLabels: Set<string>) {
  const { ex, connections } = await listConnections(ctx);
  const { min, max } = LIMITS.scopeLabel;
  const outside = (n: number) => n < min || n > max;
  const written = connections.filter(
    (c) =>
      (typeof c.scopeLabel === 'string' && refusedLabels.has(c.scopeLabel)) ||
      (!before.has(c.id) &&
        (typeof c.scopeLabel !== 'string' || (outside(characters(c.scopeLabel)) && outside(c.scopeLabel.length)))),
  );
  ctx.expect.that(written.length === 0, {
    expected:
      'a refused creation (any 4xx) writes nothing: no connection from a refused probe appears in GET /connections',
    observed: `written despite the refusal: ${written
      .slice(0, 3)
      .map((c) => String(JSON.stringify(c)).slice(0, 160))
      .join('; ')}`,
    exchange: ex,
  });
}

function probeCheck(op: Operation): CheckDef {
  const creating = op.route.idempotent === true;
  const where = `${op.route.method} ${op.route.path}`;
  return defineCheck({
    name: `generated.probes-${kebab(op.route.id)}`,
    title: `${where}: every request value missing, null, mistyped, at and one past each limit, outside its pattern (seeded probes derived from the contract; one of each kind again at the alternate address, under the earlier version and for the second tenant)`,
    severity: 'MUST',
    section: where as InterfaceSection,
    tags: ['generated', 'validation', 'limits'],
    // Probes of a creating call create where they are accepted (boundary values); the capability check only reads.
    mutating: op.route.method !== 'GET' && op.route.id !== 'checkCapability',
    ...(op.route.auth ? { requires: ['token'] as const } : {}),
    async run(ctx) {
      const make = await validCalls(ctx, op);
      if (typeof make === 'string') return ctx.skip(make);
      const marker = probeMarker(ctx);
      const probes = probesOf(op, ctx.seed, make, marker);
      const before = creating ? new Set((await listConnections(ctx)).connections.map((c) => c.id)) : new Set();
      const refusedLabels = new Set<string>();
      let limited = 0;
      const sendAndJudge = async (p: Probe, base: 'main' | 'alt' = 'main', tenant?: string) => {
        const { ex, isStream } = await send(ctx, op, p, base, tenant);
        // Still rate limited after the interface's retry policy: no verdict on this probe.
        if (ex.status === RATE_LIMITED) return void limited++;
        // The second tenant's access or catalog is its own (401, 403, 404): not judged there.
        if (tenant && [401, 403, 404].includes(ex.status)) return;
        if (!p.id.includes('@') && (await refusesRepeats(ctx, op, p, ex))) return;
        judge(ctx, p, ex, isStream);
        if (ex.status >= 400 && ex.status < 500) {
          const values = [...Object.values(p.body ?? {}), ...Object.values(p.headers)];
          await recordRefused(ctx, `${where} probe ${p.id}`, values, marker);
          // An accepted probe's label is also the label of its creation elsewhere (the main address took it):
          // only a label the contract refuses says a connection carrying it was written despite a refusal.
          if (typeof p.body?.scopeLabel === 'string' && p.expect.accepted !== true)
            refusedLabels.add(p.body.scopeLabel);
        }
      };
      await inBatches(probes, WIDTH, (p) => sendAndJudge(p));
      // The same interface in the other places: one refused probe of each kind again, drawn by the seed.
      const again = (op.route.kind ?? 'json') === 'json' ? await placedProbes(ctx, probes) : [];
      await inBatches(again, WIDTH, ({ probe, base, tenant }) => sendAndJudge(probe, base, tenant));
      ctx.note(
        `${probes.length} probes from the contract${again.length ? ` (${again.length} sent again at the alternate address, under the earlier version or for the second tenant)` : ''}, seed ${ctx.seed}`,
      );
      if (limited) ctx.note(`${limited} probes still answered 429 after retrying: not judged`);
      if (creating) await nothingWritten(ctx, before, refusedLabels);
    },
  });
}

/** One probe check per operation whose request the interface states (derived from the route table). */
export const probeChecks: CheckDef[] = operations().filter(hasProbes).map(probeCheck);
