// The interface bounds its free-text fields by length only (scopeLabel: "descriptive name, e.g. the name
// of the venue"; operation: "short name of the operation"): no character set. The length checks send
// recognisable ASCII; these send what real names carry (spaces, apostrophes, accents, punctuation), where
// a deployment that slipped a narrower rule in (a slug pattern, a metrics-label sanitiser) refuses them.
import { LIMITS } from '../../simulator/contract/limits.ts';
import type { Exchange } from '../client/http-client.ts';
import { inBatches, routePath } from '../rules/interface-routes.ts';
import { type CheckContext, defineCheck } from '../runner/check.ts';
import { judgeBoundary } from './support/boundaries.ts';
import { postConnection, requireCreationBase } from './support/connections.ts';
import { judgeAcceptedThere, otherPlaces, type Place } from './support/places.ts';

/** A free-text field of the interface and how to send one value of it. */
interface FreeTextField {
  field: keyof typeof LIMITS;
  route: string;
  send(ctx: CheckContext, value: string, call?: Place['call']): Promise<Exchange>;
}

/** How to send each field LIMITS marks as text (`text`: a descriptive name, a name): no character set. */
export const FREE_TEXT_FIELDS: FreeTextField[] = [
  {
    field: 'scopeLabel',
    route: 'POST /connections',
    async send(ctx, value, call = {}) {
      return postConnection(ctx, { ...(await requireCreationBase(ctx)), scopeLabel: value }, call);
    },
  },
  {
    field: 'operation',
    route: 'POST /idempotency-keys',
    send: (ctx, value, call = {}) =>
      ctx.call('POST', routePath('createIdempotencyKey'), { ...call, json: { operation: value } }),
  },
];

/** Names as people write them, each inside every free-text field's length limits. */
const PRINTABLE = [
  "Café de l'Été, Zürich",
  'connection create (v2)',
  'Harbour & Kitchen #2 — Süd',
  // A unit number as addresses write it (a slash, a colon): no path or header syntax in a name.
  'Stand 12/B: Pier 3',
  // Two spaces inside, as typed: kept as sent (generated.request-echo compares the answer), not squeezed.
  'Harbour  Kitchen   One',
  // Blanks before and after (a name pasted from a form): kept as sent too, in the answer and in every later list.
  '  Harbour Kitchen Two  ',
  // Digits only (a venue known by its number, an operation by its code): still a name, nothing numeric.
  '1887',
  // What URL and form decoders, spreadsheet guards and quoting change: a plus sign, a percent sequence, a leading
  // formula character, double quotes, an at sign (generated.request-echo then holds the answer and every list to it).
  'Bar+Grill %41 One',
  '=Sum "Quoted" @Pier -1',
  // An emoji with its variation selector, one joined by a zero-width joiner: characters an "invisible" cleanup drops.
  'Café ☕️ 👨‍🍳 Crew',
  // A name at the longest scopeLabel allowed, in letters of three bytes each in UTF-8: a store counting bytes (a
  // VARCHAR(255) byte column) cuts it where a limit counted in characters does not.
  '東京駅前の居酒屋・'.repeat(Math.ceil(LIMITS.scopeLabel.max / 9)).slice(0, LIMITS.scopeLabel.max),
];
/** Labels whose replay is asked too (same key, same content): beyond ASCII letters, digits and blanks. */
const REPLAYED = /[^A-Za-z0-9 ]/;
/**
 * Capability values no catalog holds, in the characters a decoder changes: where a check of one is decided
 * (200; a 404 or 400 is the deployment's), generated.request-echo holds the decision's capability to the value sent.
 */
const CAPABILITY_ECHOES = ['orders%41x', 'menu+sync', 'café.sync'];
/** A name with a line break and a tab (pasted from a form): refusing it is a deployment's rule, faulting on it is not. */
const CONTROL = 'Harbour Kitchen\nfloor 2\tbar';

const fits = (field: keyof typeof LIMITS, v: string) => {
  const l = LIMITS[field] as { min?: number; max?: number };
  return v.length >= (l.min ?? 0) && v.length <= (l.max ?? Number.POSITIVE_INFINITY);
};

export const freeTextAccepted = defineCheck({
  name: 'limits.free-text-accepted',
  title:
    'scopeLabel and operation, bounded by length only, accept names with spaces, apostrophes, accents and punctuation; a line break inside the limits is never a server fault',
  severity: 'MUST',
  section: 'Limits',
  tags: ['limits', 'validation', 'connections', 'idempotency'],
  // A creation and issued keys are server state: the read-only profile leaves this check out.
  mutating: true,
  requires: ['token'],
  async run(ctx: CheckContext) {
    const cases = FREE_TEXT_FIELDS.flatMap((f) => [
      ...PRINTABLE.filter((v) => fits(f.field, v)).map((v) => ({ f, value: v, control: false })),
      ...(fits(f.field, CONTROL) ? [{ f, value: CONTROL, control: true }] : []),
    ]);
    await inBatches(cases, 4, async ({ f, value, control }) => {
      const ex = await f.send(ctx, value);
      const rule = `${f.route} with ${f.field} ${JSON.stringify(value)} (${value.length} characters, limit by length only)`;
      if (!control) {
        judgeBoundary(ctx, ex, true, rule);
        if (f.field === 'scopeLabel' && ex.status === 200 && REPLAYED.test(value)) await judgeReplay(ctx, ex, rule);
        return;
      }
      if (ex.status === 400) ctx.note(`${rule} is refused 400: a line break is not taken in ${f.field}`);
      ctx.expect.that(ex.status < 500, { expected: `${rule} is accepted or refused (4xx), never a 5xx`, exchange: ex });
    });
    const base = await requireCreationBase(ctx);
    for (const capability of CAPABILITY_ECHOES)
      await ctx.call('POST', routePath('checkCapability'), { json: { connectorId: base.connectorId, capability } });
    // The second tenant's own validators (a tenant onboarded later, another region's): one name there, each field.
    const [name] = PRINTABLE;
    for (const place of otherPlaces(ctx).filter((p) => p.call.tenant))
      for (const f of FREE_TEXT_FIELDS)
        if (name && fits(f.field, name))
          judgeAcceptedThere(
            ctx,
            await f.send(ctx, name, place.call),
            place.accessMayDiffer,
            `${f.route} ${place.what} with ${f.field} ${JSON.stringify(name)}`,
          );
  },
});

/**
 * The creation sent again with its key and content: "the same key with the same content returns the same response
 * again" (a fingerprint taken after re-escaping a double quote answers a conflict; generated.request-echo holds the
 * replay's label to the one sent: a replay rebuilt from a search index folds accents).
 */
async function judgeReplay(ctx: CheckContext, original: Exchange, rule: string) {
  const key = original.requestHeaders['Idempotency-Key'];
  if (!key || original.requestBody === undefined) return;
  const again = await postConnection(ctx, JSON.parse(original.requestBody), { key });
  if (again.status === 429) return;
  ctx.expect.that(again.status === original.status, {
    expected: `${rule}, sent again with its key ${key} and the same content, answers ${original.status} again (the same response)`,
    observed: `${again.status} ${(again.json as { error?: { code?: unknown } } | undefined)?.error?.code ?? ''}`,
    exchange: again,
  });
}
