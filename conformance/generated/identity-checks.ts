import { isDeepStrictEqual } from 'node:util';
import { IdempotencyKey } from '../../simulator/contract/idempotency.ts';
import { ROUTE_BY_ID } from '../../simulator/contract/route-table.ts';
import { SUPPORTED_VERSIONS } from '../../simulator/contract/versions.ts';
import { type CreationBase, postConnection, requireCreationBase } from '../checks/support/connections.ts';
import type { Exchange } from '../client/http-client.ts';
import { inBatches, interfaceRoutes } from '../rules/interface-routes.ts';
import { type CheckContext, defineCheck } from '../runner/check.ts';
import { must } from '../runner/invariant.ts';
import { skipIfLimited } from './invariant-checks.ts';
import { probeMarker } from './probe-checks.ts';
import { operations } from './request-fields.ts';
import { recordRefused } from './trace.ts';
import { validCalls } from './valid-calls.ts';

/**
 * What makes two calls "the same" to the deployment, derived from the interface's words rather than
 * from one example: a key is the string sent (the pattern tells A-Z from a-z), whichever base URL it
 * reaches ("the same interface is also offered under a second address"), under every published version
 * ("Change of 2026-06-12: modifying calls require an idempotency key"); a tenant the access is not
 * released for is refused on every authenticated operation, not only on reads.
 */
const data = (ex: Exchange) => (ex.json as { data?: Record<string, unknown> } | undefined)?.data;
const meta = (ex: Exchange) => (ex.json as { meta?: Record<string, unknown> } | undefined)?.meta ?? {};
const KEYS_PATH = () => must(ROUTE_BY_ID.get('createIdempotencyKey'), 'the contract defines createIdempotencyKey').path;
const PROVIDERS_PATH = () => must(ROUTE_BY_ID.get('listProviders'), 'the contract defines listProviders').path;
const swapCase = (s: string) =>
  s.replace(/[A-Za-z]/g, (c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()));
/** A connection without what may move by itself (state and nextStep follow transitions not shown). */
const settled = (c: Record<string, unknown> | undefined) => {
  const { state: _s, nextStep: _n, updatedAt: _u, ...rest } = c ?? {};
  return rest;
};

export const keyIdentity = defineCheck({
  name: 'generated.key-identity',
  title:
    'an Idempotency-Key is the string sent: keys differing only in letter case are two keys, the same content under a new key is a new creation, a key replays on the other base URL, and every published version requires it',
  severity: 'MUST',
  section: 'POST /api/public/v1/connections',
  tags: ['generated', 'idempotency', 'invariant'],
  mutating: true,
  requires: ['token'],
  async run(ctx: CheckContext) {
    const base = await requireCreationBase(ctx);
    // Letters of both cases, inside the pattern ^[A-Za-z0-9._:-]{8,128}$.
    const key = `Kc.${ctx.label('Case')}`.slice(0, 128);
    const first = await postConnection(ctx, { ...base, scopeLabel: ctx.label('case-a') }, { key });
    skipIfLimited(ctx, first);
    ctx.require(first.status === 200, { expected: 'a valid creation answers 200', exchange: first });
    const other = await postConnection(ctx, { ...base, scopeLabel: ctx.label('case-b') }, { key: swapCase(key) });
    skipIfLimited(ctx, other);
    ctx.expect.that(other.status === 200 && meta(other).replayed !== true && data(other)?.id !== data(first)?.id, {
      expected: `the key ${swapCase(key)} is not the key ${key} (the pattern tells upper from lower case): a second creation answers 200 with a new connection`,
      observed: `${other.status} ${String(JSON.stringify(other.json)).slice(0, 200)}`,
      exchange: other,
    });
    await sameContentNewKey(ctx, base);
    if (ctx.target.altBaseUrl) {
      // Both ways: a key store shared by the addresses is read by both (a gateway that looks keys up at the main
      // address only replays there nothing made at the alternate one).
      for (const [from, to] of [
        ['main', 'alt'],
        ['alt', 'main'],
      ] as const) {
        const body = { ...base, scopeLabel: ctx.label(`across-${from}`) };
        const across = ctx.label(`key-across-${from}`);
        const made = await postConnection(ctx, body, { key: across, base: from });
        skipIfLimited(ctx, made);
        const again = await postConnection(ctx, body, { key: across, base: to });
        skipIfLimited(ctx, again);
        const [one, other] = from === 'main' ? ['main', 'alternate'] : ['alternate', 'main'];
        ctx.expect.that(
          again.status === made.status &&
            meta(again).replayed === true &&
            isDeepStrictEqual(settled(data(again)), settled(data(made))),
          {
            expected: `the same key and content sent to the ${other} base URL replays the creation made at the ${one} one (the same interface): the same status and connection, meta.replayed true`,
            observed: `${again.status}, meta.replayed ${JSON.stringify(meta(again).replayed)}, data ${String(JSON.stringify(data(again))).slice(0, 160)}; original ${String(JSON.stringify(data(made))).slice(0, 160)}`,
            exchange: again,
          },
        );
      }
    } else ctx.note('no --alt-base-url: a key was not replayed across base URLs');
    for (const version of SUPPORTED_VERSIONS) {
      const keyless = await postConnection(
        ctx,
        { ...base, scopeLabel: ctx.label(`keyless-${version}`) },
        { key: false, headers: { 'Service-Version': version } },
      );
      skipIfLimited(ctx, keyless);
      ctx.expect.that(keyless.status < 200 || keyless.status >= 300, {
        expected: `a creation without Idempotency-Key under Service-Version ${version} is refused (428 idempotency_required; the key is required since 2026-06-12)`,
        observed: `${keyless.status}: created without a key`,
        exchange: keyless,
      });
      // One authenticated read per version too: the response rules (envelope, meta, rate-limit headers)
      // then judge a counted answer under every published version, not only under the current one.
      await ctx.call('GET', PROVIDERS_PATH(), { headers: { 'Service-Version': version } });
    }
  },
});

/** A creation made with a key the deployment issued, replayed once at once: generated.key-replays-later sends it again. */
export interface IssuedKeyCreation {
  key: string;
  body: Record<string, unknown>;
  made: Exchange;
  expiresAt: number;
  /** When it was made (ms since the epoch). */
  madeAt: number;
}
export const ISSUED_KEY_CREATION = 'generated.issued-key-creation';

/**
 * A key is the operation: the same content under a key the deployment issued, then under a fresh key,
 * makes a second connection (not a replay of the first, not idempotency_conflict, which means "same
 * idempotency key with different content"). The issued key's creation is replayed at once and kept for
 * a replay at the end of the run.
 */
async function sameContentNewKey(ctx: CheckContext, base: CreationBase) {
  const issued = await ctx.call('POST', KEYS_PATH(), { json: { operation: 'connection.create' } });
  const d = data(issued);
  const key =
    typeof d?.idempotencyKey === 'string' && IdempotencyKey.safeParse(d.idempotencyKey).success
      ? d.idempotencyKey
      : undefined;
  if (!key)
    return ctx.note(
      `POST ${KEYS_PATH()} answered ${issued.status} without a usable key: the same content was not sent under two keys`,
    );
  const body = { ...base, scopeLabel: ctx.label('same-content') };
  const made = await postConnection(ctx, body, { key });
  skipIfLimited(ctx, made);
  // "The same key with different content yields idempotency_conflict": a key just issued carries no content yet.
  const code = (made.json as { error?: { code?: unknown } } | undefined)?.error?.code;
  ctx.expect.that(code !== 'idempotency_conflict', {
    expected: `the first creation under the key POST ${KEYS_PATH()} just issued (operation connection.create) is no conflict: nothing was sent under it before`,
    observed: `${made.status} idempotency_conflict`,
    exchange: made,
  });
  if (made.status !== 200) return ctx.note(`a creation with the issued key answered ${made.status}: not judged here`);
  const replay = await postConnection(ctx, body, { key });
  skipIfLimited(ctx, replay);
  await ctx.shared<IssuedKeyCreation>(ISSUED_KEY_CREATION, async () => ({
    key,
    body,
    made,
    expiresAt: Date.parse(String(d?.expiresAt)),
    madeAt: Date.now(),
  }));
  const second = await postConnection(ctx, body);
  skipIfLimited(ctx, second);
  ctx.expect.that(second.status === 200 && meta(second).replayed !== true && data(second)?.id !== data(made)?.id, {
    expected:
      'the same content under a new Idempotency-Key is a new operation ("use a new key for each new operation"): a second creation answers 200 with a new connection, not a replay and not idempotency_conflict (which means the same key with different content)',
    observed: `${second.status} ${String(JSON.stringify(second.json)).slice(0, 200)}`,
    exchange: second,
  });
}

export const foreignTenantEveryOperation = defineCheck({
  name: 'generated.foreign-tenant-every-operation',
  title:
    'every authenticated operation of the contract, reads and writes, answers 403 forbidden for a tenant the access is not released for',
  severity: 'MUST',
  section: 'Errors',
  tags: ['generated', 'errors', 'tenant'],
  mutating: true,
  requires: ['token', 'foreign-tenant'],
  async run(ctx: CheckContext) {
    const tenant = ctx.target.foreignTenant;
    if (!tenant) return ctx.skip('no foreign tenant given (--foreign-tenant)');
    const ops = operations().filter((op) => op.route.auth && (op.route.kind ?? 'json') === 'json');
    await inBatches(ops, 2, async (op) => {
      const make = await validCalls(ctx, op);
      if (typeof make === 'string') return ctx.note(`${op.route.method} ${op.route.path}: ${make}`);
      const call = make('foreign-tenant');
      const ex = await ctx.call(op.route.method, op.route.path, {
        tenant,
        query: call.query,
        headers: call.headers,
        ...(call.body !== undefined ? { json: call.body } : {}),
      });
      if (ex.status === 429) return ctx.note(`${op.route.method} ${op.route.path}: rate limited, not judged`);
      // Refused, it wrote nothing anywhere: not for the foreign tenant, nor under the access's own tenant
      // (generated.refused-left-no-trace looks for its values in the own tenant's list, stream and deliveries).
      if (ex.status >= 400 && ex.status < 500)
        await recordRefused(
          ctx,
          `${op.route.method} ${op.route.path} for the foreign tenant ${tenant}`,
          [...Object.values(call.body ?? {}), ...Object.values(call.headers)],
          probeMarker(ctx),
        );
      ctx.expect.errorCode(
        ex,
        'forbidden',
        `a valid ${op.route.method} ${op.route.path} with x-service-tenant ${tenant} answers 403 forbidden`,
      );
    });
    // The authenticated reads without parameters too (GET /connections): an empty list is no refusal.
    const plain = interfaceRoutes().filter(
      (r) => r.auth && r.method === 'GET' && !r.path.includes('{') && !r.query && (r.kind ?? 'json') === 'json',
    );
    for (const r of plain) {
      const ex = await ctx.call('GET', r.path, { tenant });
      if (ex.status === 429) ctx.note(`GET ${r.path}: rate limited, not judged`);
      else ctx.expect.errorCode(ex, 'forbidden', `GET ${r.path} with x-service-tenant ${tenant} answers 403 forbidden`);
    }
  },
});

export const identityChecks = [keyIdentity, foreignTenantEveryOperation];
