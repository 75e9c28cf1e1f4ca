import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { home, isCreate, P, refuse } from './proxy-helpers.ts';
import { isSecond, type Rec } from './round44-common.ts';

/** Round 56, part 1: texts with unusual characters (percent signs, plus signs, emoji, accents, quotes) sent once and read back elsewhere. */
const isGet = (c: ProxyCall, tail: string) => c.method === 'GET' && c.path === P(tail);
const isCheck = (c: ProxyCall) => c.method === 'POST' && c.path === P('/capabilities');
const bodyOf = (b: unknown) => (b && typeof b === 'object' && !Array.isArray(b) ? (b as Rec) : {});
const listed = (c: ProxyCall, a: ProxyAnswer) =>
  isGet(c, '/connections') && a.status === 200 && Array.isArray(a.json.data?.connections)
    ? (a.json.data.connections as Rec[]).filter((x) => typeof x?.scopeLabel === 'string')
    : [];
const NON_ASCII = /[^\t\n\r -~]/;

export const ROUND56_ANSWERS: UnseenViolation[] = [
  {
    name: 'scope-label-percent-sequences-decoded-in-list',
    statement:
      'Connection: scopeLabel | string | descriptive name, e.g. the name of the venue; GET /api/public/v1/connections: connections (array of Connection) (a scopeLabel holding a percent sign followed by two hex digits, listed)',
    answer(c, a) {
      // The list serializer runs every label through decodeURIComponent, a leftover from when labels came in as query parameters.
      home(c);
      for (const con of listed(c, a)) {
        if (!/%[0-9A-Fa-f]{2}/.test(con.scopeLabel)) continue;
        try {
          con.scopeLabel = decodeURIComponent(con.scopeLabel);
        } catch {
          // a sequence that does not decode is left as it is
        }
      }
    },
  },
  {
    name: 'scope-label-plus-signs-listed-as-spaces',
    statement:
      'Connection: scopeLabel | string | descriptive name; GET /api/public/v1/connections: connections (array of Connection) (a scopeLabel holding a plus sign, created and then listed)',
    answer(c, a) {
      // The list is read back from a cache whose values are stored form-encoded and decoded with the form rules ("+" is a blank).
      home(c);
      for (const con of listed(c, a))
        if (con.scopeLabel.includes('+')) con.scopeLabel = con.scopeLabel.replaceAll('+', ' ');
    },
  },
  {
    name: 'scope-label-leading-formula-characters-stripped-in-list',
    statement:
      'Connection: scopeLabel | string | descriptive name; GET /api/public/v1/connections: connections (array of Connection) (a scopeLabel beginning with =, +, - or @, listed)',
    answer(c, a) {
      // The CSV export's spreadsheet-injection guard was moved into the shared list presenter, so the JSON list strips those too.
      home(c);
      for (const con of listed(c, a)) {
        const cut = con.scopeLabel.replace(/^[=+\-@]+/, '');
        if (cut !== con.scopeLabel) con.scopeLabel = cut;
      }
    },
  },
  {
    name: 'scope-label-emoji-joiners-and-variation-selectors-dropped-in-list',
    statement:
      'Connection: scopeLabel | string | descriptive name, e.g. the name of the venue (a scopeLabel with an emoji written with a variation selector or a zero-width joiner, listed)',
    answer(c, a) {
      // The "invisible characters" sanitizer of the list view removes U+FE0F and U+200D, which are part of many emoji.
      home(c);
      for (const con of listed(c, a))
        if (/[\uFE0E\uFE0F\u200D]/.test(con.scopeLabel))
          con.scopeLabel = con.scopeLabel.replace(/[\uFE0E\uFE0F\u200D]/g, '');
    },
  },
  {
    name: 'replayed-scope-label-accents-folded-to-ascii',
    statement:
      'POST /api/public/v1/connections: Sending the same key with the same content returns the same response again (a creation whose scopeLabel has accented letters, repeated)',
    answer(c, a) {
      // The replay rebuilds the connection from the search index row, whose label column is the accent-folded copy.
      home(c);
      if (!isCreate(c) || a.status !== 200 || a.json.meta?.replayed !== true) return;
      const label = a.json.data?.scopeLabel;
      if (typeof label !== 'string' || !NON_ASCII.test(label)) return;
      a.json.data.scopeLabel = label.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
    },
  },
  {
    name: 'replayed-scope-label-percent-encoded',
    statement:
      'POST /api/public/v1/connections: Sending the same key with the same content returns the same response again, with meta.replayed true (a creation whose scopeLabel has blanks, slashes or non-ASCII letters, repeated)',
    answer(c, a) {
      // The replay cache keeps the label in a header-safe store with encodeURIComponent and the replay path never decodes it.
      home(c);
      if (!isCreate(c) || a.status !== 200 || a.json.meta?.replayed !== true) return;
      const label = a.json.data?.scopeLabel;
      if (typeof label === 'string' && encodeURIComponent(label) !== label)
        a.json.data.scopeLabel = encodeURIComponent(label);
    },
  },
  {
    name: 'creation-scope-label-with-double-quote-replay-conflicts',
    statement:
      'POST /api/public/v1/connections: Sending the same key with the same content returns the same response again; The same key with different content yields idempotency_conflict (a scopeLabel holding a double quote, repeated unchanged)',
    answer(c, a) {
      // The stored fingerprint is taken after the body was re-serialised with escaped quotes, the repeat's before: they never match.
      home(c);
      if (!isCreate(c) || a.status !== 200 || a.json.meta?.replayed !== true) return;
      const label = bodyOf(c.body).scopeLabel;
      if (typeof label === 'string' && label.includes('"'))
        refuse(a, 409, 'idempotency_conflict', 'The idempotency key was already used with different content.');
    },
  },
  {
    name: 'check-capability-echo-percent-decoded',
    statement:
      'CapabilityDecision (all fields required): capability | string; POST /api/public/v1/capabilities: check a capability of a connector (a capability id holding a percent sign followed by two hex digits)',
    answer(c, a) {
      // The decision is built from the route's decoded parameter bag, which percent-decodes body values as well as query values.
      home(c);
      const d = a.json.data?.decision as Rec | undefined;
      if (!isCheck(c) || a.status !== 200 || typeof d?.capability !== 'string' || !/%[0-9A-Fa-f]{2}/.test(d.capability))
        return;
      try {
        d.capability = decodeURIComponent(d.capability);
      } catch {
        // left as it is
      }
    },
  },
  {
    name: 'check-non-ascii-connector-id-answered-internal',
    statement:
      'Errors: not_found | 404 | the entry does not exist | wrong identifier; internal | 500 | fault on the service side (a check naming a connector id with non-ASCII letters)',
    answer(c, a) {
      // The connector lookup binds the id to a latin1 column and the driver throws "Illegal mix of collations" for other letters.
      home(c);
      const id = bodyOf(c.body).connectorId;
      if (isCheck(c) && typeof id === 'string' && NON_ASCII.test(id) && a.status !== 500)
        refuse(a, 500, 'internal', 'A fault occurred on the service side.');
    },
  },
  {
    name: 'second-tenant-listed-scope-label-mojibake',
    statement:
      'Connection: scopeLabel | string | descriptive name, e.g. the name of the venue; GET /api/public/v1/connections: connections of the tenant (the second tenant, a scopeLabel with non-ASCII letters)',
    answer(c, a) {
      // The second tenant lives on the older shard whose client connection charset is latin1: UTF-8 bytes come back as latin1 letters.
      if (!isSecond(c)) return;
      for (const con of listed(c, a))
        if (NON_ASCII.test(con.scopeLabel)) con.scopeLabel = Buffer.from(con.scopeLabel, 'utf8').toString('latin1');
    },
  },
];
