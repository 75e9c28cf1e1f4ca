import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { isCreate, P, refuse } from './proxy-helpers.ts';

/**
 * Round 21 of the unseen violations, part 1: answers — neighbouring listed connections with their
 * connector ids swapped, sandbox creations stamped without an offset, the listed tenant upper-cased, a
 * conflict naming the primary database, scope labels with their first letter capitalised, a keyless
 * creation refused as invalid_request when Service-Version is sent, long operations echoed cut to 64
 * characters, and large creations whose entries lack the idempotency flag.
 */
type Rec = Record<string, any>;
const isRead = (c: ProxyCall, tail: string) => c.method === 'GET' && c.path === P(tail);
const ok = (a: { status: number; json: Rec }) => a.status === 200 && a.json.ok === true;
const connectionsOf = (c: ProxyCall, a: { status: number; json: Rec }): Rec[] => {
  if (!ok(a)) return [];
  if (isCreate(c) && a.json.data && typeof a.json.data === 'object') return [a.json.data as Rec];
  const list = a.json.data?.connections;
  return isRead(c, '/connections') && Array.isArray(list) ? (list as Rec[]) : [];
};

export const ROUND21_ANSWERS: UnseenViolation[] = [
  {
    name: 'listed-neighbours-connector-ids-swapped',
    statement: 'GET /api/public/v1/connections: connections of the tenant — Connection: connectorId | string',
    answer(c, a) {
      // The list joins connectors by row position after a sort, so two neighbouring rows trade connectors.
      const list = connectionsOf(c, a);
      if (isCreate(c)) return;
      const i = list.findIndex((x, j) => j > 0 && x.connectorId !== (list[j - 1] as Rec).connectorId);
      if (i < 1) return;
      const [x, y] = [list[i - 1] as Rec, list[i] as Rec];
      [x.connectorId, y.connectorId] = [y.connectorId, x.connectorId];
    },
  },
  {
    name: 'sandbox-created-at-without-offset',
    statement: 'Connection: createdAt | string, date-time',
    answer(c, a) {
      // Sandbox rows are stamped by a local-time formatter that writes no zone designator.
      if (!isCreate(c)) return;
      for (const x of connectionsOf(c, a))
        if (x.environment === 'sandbox' && typeof x.createdAt === 'string') x.createdAt = x.createdAt.replace(/Z$/, '');
    },
  },
  {
    name: 'connections-tenant-uppercased',
    statement:
      'GET /api/public/v1/connections: data: tenant (string) — a tenant (identified by a tenant identifier in a request header)',
    answer(c, a) {
      // The list view renders the tenant through the display helper used for report headings.
      const d = a.json.data as Rec | undefined;
      if (!isRead(c, '/connections') || !ok(a) || typeof d?.tenant !== 'string') return;
      d.tenant = d.tenant.toUpperCase();
    },
  },
  {
    name: 'conflict-detail-names-primary-database',
    statement:
      'Errors: They contain the request identifier (meta.requestId) but no internal details; the identifier is all that support needs',
    answer(c, a) {
      // The conflict handler passes the driver's unique-violation text on as the detail.
      if (a.status !== 409 || a.json.error?.code !== 'idempotency_conflict') return;
      a.json.error.detail =
        'duplicate key value violates unique constraint "idempotency_keys_pkey" (SQLSTATE 23505) at pg-primary.ncs-prod.svc.cluster.local:5432';
    },
  },
  {
    name: 'scope-label-first-letter-capitalised',
    statement: 'Connection: scopeLabel | string | descriptive name, e.g. the name of the venue',
    answer(c, a) {
      // A "display name" formatter capitalises the label's first letter before it is stored.
      for (const x of connectionsOf(c, a))
        if (typeof x.scopeLabel === 'string')
          x.scopeLabel = x.scopeLabel.charAt(0).toUpperCase() + x.scopeLabel.slice(1);
    },
  },
  {
    name: 'versioned-missing-key-as-invalid-request',
    statement:
      'POST /api/public/v1/connections: A missing key yields idempotency_required — idempotency_required | 428',
    answer(c, a) {
      // The versioned router validates headers with the body schema, so a missing key becomes a 400.
      if (!isCreate(c) || !c.headers['service-version'] || a.status !== 428) return;
      refuse(
        a,
        400,
        'invalid_request',
        'The request is incomplete or unsuitable.',
        'header Idempotency-Key is required',
      );
    },
  },
  {
    name: 'long-operation-echoed-cut-to-64',
    statement:
      'POST /api/public/v1/idempotency-keys: operation (string, required, length 2 to 80) — data: ... operation (string)',
    answer(c, a) {
      // The key table's operation column is VARCHAR(64); the answer is read back from the row.
      const d = a.json.data as Rec | undefined;
      if (c.method !== 'POST' || c.path !== P('/idempotency-keys') || !ok(a) || typeof d?.operation !== 'string')
        return;
      if (d.operation.length > 64) d.operation = d.operation.slice(0, 64);
    },
  },
  {
    name: 'large-creation-entries-lack-idempotency-flag',
    statement:
      'Connection: capabilities | array of object | each entry: capability (string), critical (boolean), idempotencyRequired (boolean)',
    answer(c, a) {
      // Connections with many capabilities are built by the batch path, which forgets one column.
      for (const x of connectionsOf(c, a))
        if (Array.isArray(x.capabilities) && x.capabilities.length >= 3)
          for (const e of x.capabilities as Rec[]) delete e.idempotencyRequired;
    },
  },
];
