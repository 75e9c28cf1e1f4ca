// openapi.json documents the Limits section's response headers as what they are: X-RateLimit-Limit and
// X-RateLimit-Remaining count calls, Retry-After is "recommended wait in seconds". A description that gives
// them another form (an HTTP date, a "100/60s" text) sends generated clients parsing something never served.
// Judged on the document alone, so a run that met no 429 still judges the 429's Retry-After.
import { interfaceRoutes } from '../rules/interface-routes.ts';
import { type CheckContext, defineCheck } from '../runner/check.ts';
import { listed } from './support/listed.ts';
import type { OpenApiLike } from './support/openapi.ts';
import { deref, operationLocation, requireOpenApi } from './support/openapi.ts';
import { headersOfResponse, styleCandidates } from './support/openapi-parameters.ts';
import { describeAjvErrors, type ResponseSchemas, responseSchemas } from './support/response-schemas.ts';

/**
 * The Limits section's headers and values each must admit, as sent on the wire: a count of calls, a count of
 * calls left (none left included: the answer that runs out says 0), a number of seconds.
 */
export const LIMIT_HEADERS: Record<string, string[]> = {
  'x-ratelimit-limit': ['5'],
  'x-ratelimit-remaining': ['5', '0'],
  'retry-after': ['5'],
};

/**
 * The documented limit headers (of every status of every interface operation) whose schema refuses a value of
 * their unit, each once (a header shared through components is reported where it stands).
 * @example limitHeadersNotNumeric(doc, schemas) // ['Retry-After (openapi.json#/components/headers/Retry-After) refuses "5": as text / must match format "date-time"; as a number / must be string']
 */
export function limitHeadersNotNumeric(
  doc: OpenApiLike,
  schemas: ResponseSchemas,
): { wrong: string[]; judged: number } {
  const seen = new Set<string>();
  const wrong: string[] = [];
  for (const route of interfaceRoutes()) {
    const loc = operationLocation(doc, route.method, route.path);
    const responses = loc ? deref(doc, loc.op.responses, [...loc.at, 'responses']) : undefined;
    if (!responses?.value || typeof responses.value !== 'object') continue;
    for (const [key, raw] of Object.entries(responses.value)) {
      const found = headersOfResponse(doc, raw, [...responses.at, key]);
      for (const h of found) {
        const values = LIMIT_HEADERS[h.name.toLowerCase()];
        if (!values || !h.schemaAt || seen.has(h.schemaAt)) continue;
        seen.add(h.schemaAt);
        const validate = schemas.at(h.schemaAt);
        if (!validate) continue;
        const refused = values.filter((v) => !styleCandidates(v).some((c) => validate(c)));
        const first = refused[0];
        if (first === undefined) continue;
        // The errors of the first value refused, read as text and as the number it spells.
        const why = [first, Number(first)].map((c) => {
          validate(c);
          return describeAjvErrors(validate);
        });
        wrong.push(
          `${h.name} (openapi.json${h.schemaAt}) refuses ${refused.map((v) => JSON.stringify(v)).join(', ')}: as text ${why[0]}; as a number ${why[1]}`,
        );
      }
    }
  }
  return { wrong, judged: seen.size };
}

export const limitHeadersNumeric = defineCheck({
  name: 'openapi.limit-headers-numeric',
  title:
    'openapi.json documents X-RateLimit-Limit and X-RateLimit-Remaining as numbers of calls and Retry-After as a number of seconds: their schemas accept "5" (Remaining also "0") read in the simple style',
  severity: 'MUST',
  section: 'Limits',
  tags: ['openapi', 'limits'],
  mutating: false,
  async run(ctx: CheckContext) {
    const { ex, doc } = await requireOpenApi(ctx);
    const { wrong, judged } = limitHeadersNotNumeric(doc, await responseSchemas(ctx));
    // A document need not describe response headers: with none described there is nothing to judge.
    if (judged === 0)
      ctx.skip(
        'openapi.json documents none of X-RateLimit-Limit, X-RateLimit-Remaining, Retry-After: nothing to judge',
      );
    ctx.note(`judged ${judged} documented limit header schemas`);
    ctx.expect.that(wrong.length === 0, {
      expected:
        'the documented limit headers carry numbers ("X-RateLimit-Limit (limit for the current window), X-RateLimit-Remaining (calls left in the window), Retry-After (recommended wait in seconds)")',
      observed: listed(wrong),
      exchange: ex,
    });
  },
});

/**
 * The interface operations whose documented 429 response lists headers but not Retry-After ("When exceeded,
 * the service answers 429 with a wait time"). A 429 documented without any header is not judged: a document
 * need not describe response headers at all.
 * @example retryAfterUndocumented(doc).missing // ['GET /api/public/v1/providers 429 (X-RateLimit-Limit, X-RateLimit-Remaining)']
 */
export function retryAfterUndocumented(doc: OpenApiLike): { missing: string[]; judged: number } {
  const out: string[] = [];
  let judged = 0;
  for (const route of interfaceRoutes()) {
    const loc = operationLocation(doc, route.method, route.path);
    const responses = loc ? deref(doc, loc.op.responses, [...loc.at, 'responses']) : undefined;
    if (!responses?.value || typeof responses.value !== 'object') continue;
    const key = Object.keys(responses.value).find((k) => k === '429');
    if (key === undefined) continue;
    const found = headersOfResponse(doc, (responses.value as Record<string, unknown>)[key], [...responses.at, key]);
    if (found.length) judged += 1;
    if (found.length && !found.some((h) => h.name.toLowerCase() === 'retry-after'))
      out.push(`${route.method} ${route.path} 429 (${found.map((h) => h.name).join(', ')})`);
  }
  return { missing: out, judged };
}

export const retryAfterDocumented = defineCheck({
  name: 'openapi.retry-after-documented',
  title:
    'where openapi.json documents a 429 answer\'s headers, Retry-After is among them (the interface: 429 "with a wait time", Retry-After)',
  severity: 'SHOULD',
  section: 'Limits',
  tags: ['openapi', 'limits'],
  mutating: false,
  async run(ctx: CheckContext) {
    const { ex, doc } = await requireOpenApi(ctx);
    const { missing, judged } = retryAfterUndocumented(doc);
    if (!judged) ctx.skip('openapi.json documents no 429 answer with its headers: nothing to judge');
    ctx.expect.that(missing.length === 0, {
      expected:
        'each documented 429 that lists its headers lists Retry-After ("the service answers 429 with a wait time"; "Retry-After (recommended wait in seconds)")',
      observed: `without Retry-After: ${listed(missing)}`,
      exchange: ex,
    });
  },
});
