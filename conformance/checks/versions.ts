import { ERROR_TABLE } from '../../simulator/contract/errors.ts';
import { BASE_PATH, CURRENT_VERSION, SUPPORTED_VERSIONS } from '../../simulator/contract/versions.ts';
import type { Exchange } from '../client/http-client.ts';
import { type CheckContext, defineCheck } from '../runner/check.ts';
import { pairingProblem } from './errors.ts';
import { authenticatedGet, errorProbes } from './support/error-probes.ts';
import { successSamples } from './support/samples.ts';
import { deliveriesPath, deliveryLogTemplate, webhookScenario } from './support/webhook-scenario.ts';

const errorCodeOf = (ex: Exchange) => {
  const code = (ex.json as { error?: { code?: unknown } } | undefined)?.error?.code;
  return typeof code === 'string' ? code : undefined;
};
const versionOf = (ex: Exchange) => (ex.json as { meta?: { version?: unknown } } | undefined)?.meta?.version;
const published = SUPPORTED_VERSIONS as readonly string[];

async function enveloped(ctx: Parameters<typeof errorProbes>[0]) {
  const answers = [...(await successSamples(ctx)).map((s) => s.ex), ...(await errorProbes(ctx)).map((p) => p.ex)];
  return answers.filter((ex) => typeof ex.json === 'object' && ex.json !== null && 'meta' in ex.json);
}

export const metaVersionPublished = defineCheck({
  name: 'versions.meta-version-published',
  title: `meta.version of every answer is a published interface version (${SUPPORTED_VERSIONS.join(', ')})`,
  severity: 'MUST',
  section: 'Versioning',
  tags: ['versions', 'meta'],
  mutating: false,
  async run(ctx: CheckContext) {
    for (const ex of await enveloped(ctx)) {
      const v = versionOf(ex);
      ctx.expect.that(typeof v === 'string' && published.includes(v), {
        expected: `meta.version is one of ${published.join(', ')}`,
        observed: `meta.version ${JSON.stringify(v)}`,
        exchange: ex,
      });
    }
  },
});

export const currentByDefault = defineCheck({
  name: 'versions.current-by-default',
  title: `without Service-Version the answer reports the current version ${CURRENT_VERSION}`,
  severity: 'SHOULD',
  section: 'Versioning',
  tags: ['versions'],
  mutating: false,
  async run(ctx: CheckContext) {
    // Every other call of the kit sends Service-Version (as the sample calls do): these two do not.
    const calls = [ctx.call('GET', BASE_PATH, { credentials: 'none', defaultHeaders: false })];
    if (ctx.target.hasToken) calls.push(ctx.call('GET', authenticatedGet().path, { defaultHeaders: false }));
    const answers = await Promise.all(calls);
    if (answers.every((ex) => ex.status === ERROR_TABLE.invalid_request.status))
      ctx.skip(
        'this deployment requires Service-Version (refuses calls without it with 400): legal, the interface leaves open whether the header is mandatory',
      );
    for (const ex of answers) {
      const v = versionOf(ex);
      if (ex.status !== 200 || typeof v !== 'string' || !published.includes(v)) continue;
      ctx.expect.that(v === CURRENT_VERSION, {
        expected: `meta.version ${CURRENT_VERSION} when no Service-Version is sent`,
        observed: `meta.version ${v}`,
        exchange: ex,
      });
    }
  },
});

export const serviceVersionCurrent = defineCheck({
  name: 'versions.service-version-current',
  title: `Service-Version: ${CURRENT_VERSION} (as the sample calls send it) is answered as that version`,
  severity: 'MUST',
  section: 'Versioning',
  tags: ['versions', 'headers'],
  mutating: false,
  async run(ctx: CheckContext) {
    const calls = [
      ctx.call('GET', BASE_PATH, { credentials: 'none', headers: { 'Service-Version': CURRENT_VERSION } }),
    ];
    if (ctx.target.hasToken)
      calls.push(ctx.call('GET', authenticatedGet().path, { headers: { 'Service-Version': CURRENT_VERSION } }));
    for (const ex of await Promise.all(calls)) {
      const rule = `${ex.method} ${new URL(ex.url).pathname} with Service-Version: ${CURRENT_VERSION}`;
      if (!ctx.expect.status(ex, 200, `${rule} answers 200`)) continue;
      ctx.expect.that(versionOf(ex) === CURRENT_VERSION, {
        expected: `${rule} reports meta.version ${CURRENT_VERSION}`,
        observed: `meta.version ${JSON.stringify(versionOf(ex))}`,
        exchange: ex,
      });
    }
  },
});

export const unknownServiceVersion = defineCheck({
  name: 'versions.unknown-service-version',
  title: 'an unknown Service-Version is either served as a published version or refused with 400 invalid_request',
  severity: 'SHOULD',
  section: 'Versioning',
  tags: ['versions', 'headers'],
  mutating: false,
  async run(ctx: CheckContext) {
    const ex = await ctx.call('GET', BASE_PATH, { credentials: 'none', headers: { 'Service-Version': '1999-01-01' } });
    if (ex.status === 200) {
      const v = versionOf(ex);
      ctx.expect.that(typeof v === 'string' && published.includes(v), {
        expected: 'served as a published version',
        observed: `meta.version ${JSON.stringify(v)}`,
        exchange: ex,
      });
      return;
    }
    ctx.expect.errorCode(ex, 'invalid_request', 'an unknown Service-Version is refused with 400 invalid_request');
    if (ex.status !== ERROR_TABLE.invalid_request.status) ctx.note(pairingProblem(ex) ?? `answered ${ex.status}`);
  },
});

const EARLIER = SUPPORTED_VERSIONS[1];

export const deliveryLogSince = defineCheck({
  name: 'versions.delivery-log-since-current',
  title: `the webhook delivery log, added in ${CURRENT_VERSION}, answers callers of that version (also right after a ${EARLIER} caller was refused it); a caller asking for ${EARLIER} gets it too (an additive change) or a well-formed refusal`,
  severity: 'SHOULD',
  section: 'Versioning',
  tags: ['versions', 'webhooks'],
  mutating: true,
  requires: ['token'],
  async run(ctx: CheckContext) {
    const template = await deliveryLogTemplate(ctx);
    const s = await webhookScenario(ctx);
    if (!s.webhookId)
      ctx.skip('no receiver was registered, or its id was not found in the answer (see webhooks.registration)');
    const path = await deliveriesPath(ctx, s.webhookId);
    const call = (v: string) => ctx.call('GET', path, { headers: { 'Service-Version': v } });
    const [current, earlier] = await Promise.all([call(CURRENT_VERSION), call(EARLIER)]);
    if (current.status === ERROR_TABLE.not_found.status && errorCodeOf(current) === 'not_found')
      ctx.skip(
        `GET ${template} answered 404 not_found: no delivery log at the path the kit read or assumed (the interface does not show its path, and no published route fits a delivery log); declare it as webhookDeliveryLogPath in the deployment profile (null: it has none)`,
      );
    // Not declared, the path is the kit's reading of what the deployment publishes: a 400 refusing the value
    // it filled in (a filter written `eq.<id>`) says the reading is wrong, not the log (as webhooks.delivery-log).
    // (Answered 400 with the run's own headers too: a 400 to the version alone is this check's to judge.)
    if (
      current.status === ERROR_TABLE.invalid_request.status &&
      !ctx.declared('webhookDeliveryLogPath') &&
      (await ctx.call('GET', path)).status === ERROR_TABLE.invalid_request.status
    )
      ctx.skip(
        `GET ${path} (the kit's reading of ${template}) answered 400: declare the log's path as webhookDeliveryLogPath in the deployment profile`,
      );
    ctx.expect.status(current, 200, `GET ${template} with Service-Version ${CURRENT_VERSION} answers 200`);
    // "No change that requires adaptation of clients exists": offering the log to earlier callers is
    // legal, and so is hiding it (404) or refusing the version (400). Whichever it is, it is well formed.
    if (earlier.status === 200) return void ctx.note(`offered to ${EARLIER} callers too (additive change)`);
    // The earlier caller's refusal is that version's: a current caller right after still gets the log (an edge
    // cache keying the answer by path and tenant, not by Service-Version, serves it the refusal).
    const after = await call(CURRENT_VERSION);
    if (after.status !== 429)
      ctx.expect.that(after.status === current.status, {
        expected: `GET ${template} with Service-Version ${CURRENT_VERSION}, read right after a ${EARLIER} caller was answered ${earlier.status}, answers ${current.status} as before`,
        observed: `status ${after.status}`,
        exchange: after,
      });
    const problem = pairingProblem(earlier);
    ctx.expect.that(problem === undefined && typeof errorCodeOf(earlier) === 'string', {
      expected: `GET ${template} with Service-Version ${EARLIER} answers 200, or an error whose code the Errors table pairs with its status`,
      observed: problem ?? `status ${earlier.status} without error.code`,
      exchange: earlier,
    });
  },
});

export const versionChecks = [
  metaVersionPublished,
  currentByDefault,
  serviceVersionCurrent,
  unknownServiceVersion,
  deliveryLogSince,
];
