// The facts a run of the place scenario shows (place-scenario.ts): each a thing the home showed and whether a
// place shows it too. Content is compared only as the home showed it, never against the kit's own expectation.
import { isDeepStrictEqual } from 'node:util';
import type { Exchange } from '../../client/http-client.ts';
import { bodyOf, type Observed } from './place-scenario.ts';

/** The fields of a creation its replay repeats whatever happened since (state and nextStep may move on). */
const LASTING = ['id', 'connectorId', 'environment', 'scopeLabel', 'capabilities', 'createdAt'] as const;
const lasting = (ex: Exchange | undefined) => {
  const data = bodyOf(ex).data ?? {};
  return Object.fromEntries(LASTING.map((f) => [f, data[f]]));
};

/** One thing the home showed (`home`), and whether the place shows it too (`there`), with what it showed instead. */
export interface Fact {
  what: string;
  rule: string;
  home: boolean;
  there: boolean;
  ex: Exchange | undefined;
  observed?: string;
  /** A status compared; any other fact is read from a place's answer only where that answer is a success. */
  status?: true;
}

const str = (v: unknown) => (v === undefined ? 'nothing' : JSON.stringify(v));
const meta = (ex: Exchange | undefined) => bodyOf(ex).meta ?? {};
const data = (ex: Exchange | undefined) => bodyOf(ex).data ?? {};
const status = (what: string, rule: string, h: Exchange | undefined, t: Exchange | undefined): Fact => ({
  what: `${what} answers ${h?.status}`,
  rule,
  status: true,
  home: h?.status === 200,
  there: t?.status === h?.status,
  ex: t,
  observed: `${t?.status}`,
});

export function selfFacts(home: Observed, there: Observed): Fact[] {
  const [h, t] = [home.self, there.self];
  const flags = (ex: Exchange) => {
    const routes = data(ex).routes;
    return new Map(
      (Array.isArray(routes) ? routes : []).map((r: Record<string, unknown>) => [`${r.method} ${r.path}`, r.auth]),
    );
  };
  const [hf, tf] = [flags(h), flags(t)];
  return [
    status('GET /api/public/v1', 'the self-description is public', h, t),
    ...[...hf].flatMap(([route, auth]) =>
      typeof auth === 'boolean' && tf.has(route)
        ? [
            {
              what: `the self-description marks ${route} auth: ${auth}`,
              rule: 'RouteInfo.auth',
              home: true,
              there: tf.get(route) === auth,
              ex: t,
              observed: `auth: ${str(tf.get(route))}`,
            },
          ]
        : [],
    ),
  ];
}

export function readFacts(home: Observed, there: Observed): Fact[] {
  const facts = [
    status('GET /connections', "the tenant's connections", home.list, there.list),
    ...home.catalog.map((h, i) => status(`GET ${h.path}`, 'the catalog', h.ex, there.catalog[i]?.ex)),
  ];
  const tenant = (o: Observed) => data(o.list).tenant === o.tenant;
  facts.push({
    what: `GET /connections names tenant ${there.tenant}`,
    rule: 'data.tenant',
    home: tenant(home),
    there: tenant(there),
    ex: there.list,
    observed: `data.tenant ${str(data(there.list).tenant)}`,
  });
  const [hc, tc] = [home.check, there.check];
  if (!hc || !tc) return facts;
  const decision = (x: typeof hc) => (data(x.ex).decision ?? {}) as Record<string, unknown>;
  const env = (x: typeof hc) => data(x.ex).environment === x.environment;
  const pair = (x: typeof hc) =>
    decision(x).connectorId === x.pair.connectorId && decision(x).capability === x.pair.capability;
  return [
    ...facts,
    status(`POST /capabilities in ${tc.environment}`, 'a valid capability check', hc.ex, tc.ex),
    {
      what: `POST /capabilities reports the environment asked (${tc.environment})`,
      rule: 'data.environment',
      home: env(hc),
      there: env(tc),
      ex: tc.ex,
      observed: `data.environment ${str(data(tc.ex).environment)}`,
    },
    {
      what: 'POST /capabilities decides on the connector and capability asked',
      rule: 'CapabilityDecision',
      home: pair(hc),
      there: pair(tc),
      ex: tc.ex,
      observed: `decision ${str(decision(tc).connectorId)} ${str(decision(tc).capability)}`,
    },
  ];
}

/** The ids a catalog list answer names (its one array of records with an id), sorted; undefined when none. */
function listedIds(ex: Exchange | undefined): string[] | undefined {
  const list = Object.values(data(ex)).find(
    (v): v is Record<string, unknown>[] => Array.isArray(v) && v.every((e) => !!e && typeof e === 'object'),
  );
  const ids = list?.map((e) => e.id);
  return ids?.every((id) => typeof id === 'string') ? (ids as string[]).sort() : undefined;
}

/**
 * The catalog is the service's data, not a tenant's: where the access is the home's (the alternate address, the
 * earlier version), each list names the entries it names at home (an older handler's query dropping the newest).
 */
export function catalogFacts(home: Observed, there: Observed): Fact[] {
  return home.catalog.flatMap((h, i) => {
    const [mine, theirs] = [listedIds(h.ex), listedIds(there.catalog[i]?.ex)];
    if (!mine || !theirs) return [];
    const missing = mine.filter((id) => !theirs.includes(id));
    const extra = theirs.filter((id) => !mine.includes(id));
    return [
      {
        what: `GET ${h.path} lists the entries it lists at home (${mine.length})`,
        rule: 'the catalog',
        home: true,
        there: missing.length === 0 && extra.length === 0,
        ex: there.catalog[i]?.ex,
        observed: `${missing.length ? `without ${missing.slice(0, 3).join(', ')}` : ''}${missing.length && extra.length ? '; ' : ''}${extra.length ? `with ${extra.slice(0, 3).join(', ')} besides` : ''}`,
      },
    ];
  });
}

export function writeFacts(home: Observed, there: Observed): Fact[] {
  const [hc, tc] = [home.create, there.create];
  if (!hc || !tc) return [];
  const facts: Fact[] = [status('a valid POST /connections', 'a fresh key', hc.ex, tc.ex)];
  for (const f of ['connectorId', 'environment', 'scopeLabel'])
    facts.push({
      what: `the created Connection's ${f} is the one sent`,
      rule: 'Connection',
      home: data(hc.ex)[f] === hc.body[f],
      there: data(tc.ex)[f] === tc.body[f],
      ex: tc.ex,
      observed: `${f} ${str(data(tc.ex)[f])}`,
    });
  const [hr, tr] = [home.replay, there.replay];
  if (hr && tr) {
    const again = 'Sending the same key with the same content returns the same response again';
    facts.push(
      status('the same key with the same content', again, hr, tr),
      {
        what: 'the replay says meta.replayed: true',
        rule: again,
        home: meta(hr).replayed === true,
        there: meta(tr).replayed === true,
        ex: tr,
        observed: `meta.replayed ${str(meta(tr).replayed)}`,
      },
      {
        what: 'the replay states meta.idempotencyKey',
        rule: again,
        home: meta(hr).idempotencyKey === hc.key,
        there: meta(tr).idempotencyKey === tc.key,
        ex: tr,
        observed: `meta.idempotencyKey ${str(meta(tr).idempotencyKey)}`,
      },
      {
        what: 'the replay answers the same Connection',
        rule: again,
        home: isDeepStrictEqual(lasting(hr), lasting(hc.ex)),
        there: isDeepStrictEqual(lasting(tr), lasting(tc.ex)),
        ex: tr,
        observed: str(lasting(tr)),
      },
      {
        what: 'the replay has a meta.requestId of its own',
        rule: 'meta.requestId: identifier of this call',
        home: meta(hr).requestId !== meta(hc.ex).requestId,
        there: meta(tr).requestId !== meta(tc.ex).requestId,
        ex: tr,
        observed: `the first call's ${str(meta(tr).requestId)}`,
      },
    );
  }
  const conflict = (ex: Exchange | undefined) =>
    ex?.status === 409 && bodyOf(ex).error?.code === 'idempotency_conflict';
  if (home.conflict && there.conflict)
    facts.push({
      what: 'the same key with other content answers 409 idempotency_conflict',
      rule: 'The same key with different content yields idempotency_conflict',
      status: true,
      home: conflict(home.conflict),
      there: conflict(there.conflict),
      ex: there.conflict,
      observed: `${there.conflict.status} ${str(bodyOf(there.conflict).error?.code)}`,
    });
  const [hm, across] = [home.create, there.across];
  if (hm && across) {
    const id = data(hm.ex).id;
    facts.push(
      status(
        "the home's key with the home's content",
        'the same interface at each address and version',
        home.replay,
        across.replay,
      ),
      {
        what: "the home's key with the home's content answers the connection it created",
        rule: 'Sending the same key with the same content returns the same response again',
        home: true,
        there: data(across.replay).id === id,
        ex: across.replay,
        observed: `data.id ${str(data(across.replay).id)}`,
      },
      {
        what: "the home's key with other content answers 409 idempotency_conflict",
        rule: 'The same key with different content yields idempotency_conflict',
        status: true,
        home: conflict(home.conflict),
        there: conflict(across.conflict),
        ex: across.conflict,
        observed: `${across.conflict.status} ${str(bodyOf(across.conflict).error?.code)}`,
      },
    );
  }
  facts.push(...afterFacts(home, there));
  if (home.audited === true && there.auditLog)
    facts.push({
      what: 'the audit log names the connection just created',
      rule: 'traceable changes of the tenant',
      status: true,
      home: true,
      there: there.audited === true,
      ex: there.auditLog,
      observed: there.audited === false ? 'not named in the entries read' : `${there.auditLog.status}`,
    });
  return facts;
}

/**
 * A key asked for right after a creation is issued as at any time. (The list read right after it is not held to
 * the home's: the interface promises no read of one's own write at once; generated.created-listed waits for it.)
 */
function afterFacts(home: Observed, there: Observed): Fact[] {
  const [h, t] = [home.after, there.after];
  if (!h || !t) return [];
  const issued = (ex: Exchange) => ex.status === 200 && typeof data(ex).idempotencyKey === 'string';
  return [
    {
      what: 'POST /idempotency-keys right after a creation issues a key',
      rule: 'POST /api/public/v1/idempotency-keys: data: idempotencyKey, operation, expiresAt',
      status: true,
      home: issued(h.key),
      there: issued(t.key),
      ex: t.key,
      observed: `${t.key.status} ${str(bodyOf(t.key).error?.code)}`,
    },
  ];
}
