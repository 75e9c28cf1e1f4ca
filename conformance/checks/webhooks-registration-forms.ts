// A registration names "a url and a list of event names" under an Idempotency-Key of the Limits' pattern:
// nothing narrower. A deployment that takes the kit's one registration may still refuse what partners send
// (a receiver URL with a query string, a list without the first sample event, a key of 8 characters or one
// starting with a hyphen), and in one place only (the alternate address, the second tenant, the earlier
// version). Each form is compared with a plain registration in the same place, so a deployment refusing the
// kit's receiver address itself (not reachable from it) is not judged.
import { randomBytes } from 'node:crypto';
import { LIMITS } from '../../simulator/contract/limits.ts';
import type { Exchange } from '../client/http-client.ts';
import { inBatches } from '../rules/interface-routes.ts';
import { type CheckContext, defineCheck } from '../runner/check.ts';
import { receiverIdOf } from './support/one-list.ts';
import { earlierVersionPlace, otherPlaces, type Place } from './support/places.ts';
import { companionEvent, registrableEventNames, testEvent } from './support/webhook-events.ts';
import { removeAtRunEnd, webhooksPath } from './support/webhook-scenario.ts';

const KEY = LIMITS.idempotencyKey;
const hex = (bytes: number) => randomBytes(bytes).toString('hex');

/** One registration: its receiver URL's path and query after the address, its events, its key. */
interface Form {
  what: string;
  /** Appended to the address and label (`/label` + this). */
  url?: string;
  /** Before the label (`/this/label`). */
  prefix?: string;
  events?: (names: { test: string; other: string }) => string[] | undefined;
  key?: () => string;
}

const alone: Form = {
  what: 'the events list of one other published name alone',
  events: ({ test, other }) => (other === test ? undefined : [other]),
};

const twoNames: Form = {
  what: 'the events list of two published names, the test event first',
  events: ({ test, other }) => (other === test ? undefined : [test, other]),
};

/** At home, each form on its own: keys anywhere inside the pattern, URLs with more than a path, other lists. */
const FORMS: Form[] = [
  { what: `a key of ${KEY.min} characters`, key: () => hex(KEY.min).slice(0, KEY.min) },
  { what: 'a key starting with "-"', key: () => `-${hex(8)}` },
  { what: 'a key starting with "."', key: () => `.${hex(8)}` },
  { what: 'a key ending with "."', key: () => `${hex(8)}.` },
  { what: 'a key ending with "-"', key: () => `${hex(8)}-` },
  { what: 'a key of colons and dots', key: () => `ncs:${hex(4)}.${hex(4)}:1` },
  { what: 'a key of digits only', key: () => [...randomBytes(12)].map((b) => String(b % 10)).join('') },
  { what: 'a receiver URL with a query string', url: '?source=ncs&attempt=1' },
  { what: 'a receiver URL with a deeper path', prefix: 'hooks/v1' },
  alone,
  twoNames,
];

/**
 * Elsewhere, the forms in one registration (each is legal, so all together are; fewer receivers stay
 * registered for the rest of the run) and the other name alone.
 */
const PLACE_FORMS: Form[] = [
  {
    what: `a key of ${KEY.min} characters starting with "-" and a receiver URL with a deeper path and a query string`,
    key: () => `-${hex(4)}`.slice(0, KEY.min),
    prefix: 'hooks/v1',
    url: '?source=ncs&attempt=1',
  },
  alone,
  twoNames,
];

/** At most this many further published names are registered alone (a deployment may publish dozens). */
const MORE_NAMES = 6;

/**
 * Each further name the deployment publishes for registrations, alone (a name wired to another subscription
 * service, whose answer differs: another status, no signing key), beyond the test event and the companion.
 */
const eachPublished = (names: { test: string; other: string; published: string[] }): Form[] =>
  names.published
    .filter((n) => n !== names.test && n !== names.other)
    .slice(0, MORE_NAMES)
    .map((n) => ({ what: `the events list of the published name ${n} alone`, events: () => [n] }));

/** The plain registration and each form in one place; forms refused where the plain one is taken fail. */
async function judgePlace(
  ctx: CheckContext,
  place: Place | undefined,
  names: { test: string; other: string; published: string[] },
) {
  const where = place ? ` ${place.what}` : '';
  const register = async (form: Form | undefined, plainEvents: string[]) => {
    const label = ctx.label('hook-forms');
    const url = `http://127.0.0.1:9/${form?.prefix ? `${form.prefix}/` : ''}${label}${form?.url ?? ''}`;
    const events = form?.events?.(names) ?? plainEvents;
    const ex = await ctx.call('POST', webhooksPath(), {
      json: { url, events },
      headers: { ...(place?.call.headers ?? {}), 'Idempotency-Key': form?.key?.() ?? `${label}-${hex(6)}` },
      ...(place?.call.base ? { base: place.call.base } : {}),
      ...(place?.call.tenant ? { tenant: place.call.tenant } : {}),
    });
    const id = ex.status >= 200 && ex.status < 300 ? receiverIdOf(bodyData(ex), url) : undefined;
    if (id) removeAtRunEnd(ctx, id, place?.call.tenant);
    return { ex, url, events };
  };
  const taken = (ex: Exchange) => ex.status >= 200 && ex.status < 300;
  const single = await register(undefined, [names.test]);
  // The scenario's list (the other name, then the test event) where the test event alone is refused: taken,
  // the refusal of a list of one published name is the deployment's narrower rule.
  const plain =
    taken(single.ex) || names.other === names.test ? single : await register(undefined, [names.other, names.test]);
  if (!taken(plain.ex))
    return void ctx.note(
      `POST ${webhooksPath()}${where} with url ${plain.url} and events [${plain.events.join(', ')}] answered ${plain.ex.status}: the forms are not judged there`,
    );
  if (plain !== single && single.ex.status !== 429)
    ctx.expect.that(false, {
      expected: `POST ${webhooksPath()}${where} with the events list [${names.test}] registers the receiver, as [${plain.events.join(', ')}] did: any list of published event names`,
      observed: `${single.ex.status} for events [${names.test}]`,
      exchange: single.ex,
    });
  const forms = [...(place ? PLACE_FORMS : FORMS), ...(place ? [] : eachPublished(names))].filter(
    (f) => !f.events || f.events(names),
  );
  await inBatches(forms, 4, async (form) => {
    const { ex, url, events } = await register(form, plain.events);
    if (ex.status === 429) return void ctx.note(`${form.what}${where} answered 429: not judged`);
    ctx.expect.that(ex.status >= 200 && ex.status < 300, {
      expected: `POST ${webhooksPath()}${where} with ${form.what} registers the receiver, as the plain registration there did (${plain.ex.status}): the interface asks for a url, a list of event names and a key of ${KEY.pattern}, nothing narrower`,
      observed: `${ex.status} for url ${url}, events [${events.join(', ')}]`,
      exchange: ex,
    });
  });
}

const bodyData = (ex: Exchange) => (ex.json as { data?: unknown } | undefined)?.data;

export const registrationForms = defineCheck({
  name: 'webhooks.registration-forms',
  title:
    'POST /webhooks registers in every form the interface allows, in every place: keys anywhere in the Idempotency-Key pattern, a receiver URL with a query string or a deeper path, any list of published event names (each name published for registrations alone at home)',
  severity: 'MUST',
  section: 'POST /api/public/v1/webhooks (appears in a sample call only)',
  tags: ['webhooks', 'idempotency', 'limits'],
  // Registrations are server state (removed at the run's end where the deployment offers a removal).
  mutating: true,
  requires: ['token'],
  async run(ctx: CheckContext) {
    const test = (await testEvent(ctx)).name;
    // A second published name (about something other than connections) for the lists' forms.
    const other = (await companionEvent(ctx, test)) ?? test;
    const names = { test, other, published: await registrableEventNames(ctx) };
    if (other === test) ctx.note(`the deployment publishes no second event name: every form registers ${test}`);
    await judgePlace(ctx, undefined, names);
    for (const place of [...otherPlaces(ctx), ...(await earlierVersionPlace(ctx))]) await judgePlace(ctx, place, names);
  },
});
