import { BASE_PATH } from '../../simulator/contract/versions.ts';
import type { Core, PlainResponse } from '../../simulator/index.ts';
import { defaultAccess } from './default-access.ts';
import { editJson } from './json-edit.ts';
import { inclusionPath, leafHash, treeHead } from './merkle-tree.ts';
import type { Violation } from './types.ts';

const AUDIT = `${BASE_PATH}/audit-log`;
const CONNECTIONS = `${BASE_PATH}/connections`;

/** Per core: the main address, and the connections created at another one. */
const altSeen = new WeakMap<Core, { main?: string; ids: Set<string> }>();
const altCreations = (core: Core) => {
  let seen = altSeen.get(core);
  if (!seen) {
    seen = { ids: new Set() };
    altSeen.set(core, seen);
  }
  return seen;
};
type Entry = { action?: unknown; actor?: unknown; target?: unknown };

const editEntries = (res: PlainResponse, edit: (entries: Entry[]) => Entry[]) =>
  res.status === 200
    ? editJson(res, (b) => {
        if (!b.data) return;
        b.data.entries = edit((b.data.entries as Entry[] | undefined) ?? []);
      })
    : res;

/** Violations of the audit log's integrity, order and completeness. */
export const AUDIT_VIOLATIONS: Violation[] = [
  {
    name: 'audit-merkle-root-stale',
    description:
      "the audit log carries an RFC 9162 Merkle proof (per entry a leaf hash, index and inclusion proof) whose root is the tree's before its newest entry (a root cached one write late)",
    section: 'GET /api/public/v1/audit-log (appears in a sample call only)',
    catches: ['audit.integrity'],
    async handle(req, next) {
      const res = await next(req);
      if (req.path !== AUDIT || res.status !== 200) return res;
      return editJson(res, (b) => {
        const data = b.data;
        const entries = data?.entries;
        if (!data || !Array.isArray(entries) || entries.length < 2) return;
        const leaves = entries.map((e) => leafHash(JSON.stringify(e)));
        entries.forEach((e: Record<string, unknown>, i) => {
          e.leafIndex = i;
          e.leafHash = leaves[i]?.toString('hex');
          e.inclusionProof = inclusionPath(i, leaves).map((p) => p.toString('hex'));
        });
        data.merkle = {
          scheme: 'RFC 9162',
          treeSize: leaves.length,
          rootHash: treeHead(leaves.slice(0, -1)).toString('hex'),
        };
      });
    },
  },
  {
    name: 'audit-merkle-head-stale',
    description:
      "the audit log states an RFC 6962 tree head (size and root) and per entry its leaf hash, without inclusion proofs, and the root is the tree's before its newest entry",
    section: 'GET /api/public/v1/audit-log (appears in a sample call only)',
    catches: ['audit.integrity'],
    async handle(req, next) {
      const res = await next(req);
      if (req.path !== AUDIT || res.status !== 200) return res;
      return editJson(res, (b) => {
        const data = b.data;
        const entries = data?.entries as Record<string, unknown>[] | undefined;
        if (!data || !Array.isArray(entries) || entries.length < 2) return;
        // Newest first: the leaves oldest first are the page reversed.
        const leaves = entries.map((e) => leafHash(JSON.stringify(e)));
        entries.forEach((e, i) => {
          e.leafHash = leaves[i]?.toString('hex');
        });
        const oldestFirst = [...leaves].reverse();
        data.treeHead = {
          scheme: 'RFC 6962',
          treeSize: leaves.length,
          rootHash: treeHead(oldestFirst.slice(0, -1)).toString('hex'),
        };
      });
    },
  },
  {
    name: 'audit-entry-tampered',
    description: 'the newest audit entry names another actor than the one its hash was computed for',
    section: 'GET /api/public/v1/audit-log (appears in a sample call only)',
    catches: ['audit.integrity', 'audit.entry-hash'],
    async handle(req, next) {
      const res = await next(req);
      return req.path === AUDIT
        ? editEntries(res, (entries) => entries.map((e, i) => (i === 0 ? { ...e, actor: 'someone-else' } : e)))
        : res;
    },
  },
  {
    // A proof of a format the kit does not verify as a whole (its canonicalization named otherwise): the
    // entries' own hashes are still recomputed by the formula they follow.
    name: 'audit-own-format-entry-altered',
    description:
      'the audit proof names a canonicalization of its own, and the second newest entry names another action than the one its hash was computed for',
    section: 'GET /api/public/v1/audit-log (appears in a sample call only)',
    catches: ['audit.entry-hash'],
    async handle(req, next) {
      const res = await next(req);
      if (req.path !== AUDIT || res.status !== 200) return res;
      return editJson(res, (b) => {
        const data = b.data;
        const entries = data?.entries as Entry[] | undefined;
        if (!data || !entries) return;
        const proof = data.proof as Record<string, unknown> | undefined;
        if (proof && typeof proof === 'object') proof.canonicalization = 'sorted-keys-json';
        data.entries = entries.map((e, i) => (i === 1 ? { ...e, action: 'connection.removed' } : e));
      });
    },
  },
  {
    name: 'audit-links-broken',
    description:
      "every audit entry's prevHash names its own hash instead of the previous entry's (a chain that links nothing)",
    section: 'GET /api/public/v1/audit-log (appears in a sample call only)',
    catches: ['audit.integrity', 'audit.chain-links'],
    async handle(req, next) {
      const res = await next(req);
      return req.path === AUDIT
        ? editEntries(res, (entries) => entries.map((e) => ({ ...e, prevHash: (e as { hash?: unknown }).hash })))
        : res;
    },
  },
  {
    // Oldest first is a legal choice (the interface shows no order); no consistent order is not.
    name: 'audit-order-broken',
    description: 'the audit log lists its two newest entries the wrong way round (seq in no consistent order)',
    section: 'GET /api/public/v1/audit-log (appears in a sample call only)',
    catches: ['audit.order'],
    async handle(req, next) {
      const res = await next(req);
      return req.path === AUDIT
        ? editEntries(res, (entries) => {
            const [first, second, ...rest] = entries;
            return entries.length < 3 || first === undefined || second === undefined
              ? entries
              : [second, first, ...rest];
          })
        : res;
    },
  },
  {
    name: 'audit-change-missing',
    description:
      'changes of connections (creations, activations) are recorded without the connection they concern (target blanked)',
    section: 'GET /api/public/v1/audit-log (appears in a sample call only)',
    catches: ['audit.records-change', 'audit.integrity'],
    async handle(req, next) {
      const res = await next(req);
      return req.path === AUDIT
        ? editEntries(res, (entries) =>
            // Every entry of a connection: the kit reads the log again while it lags (a replica), so an
            // activation recorded seconds later would name the connection the creation's entry left out.
            entries.map((e) => (String(e.action).startsWith('connection.') ? { ...e, target: 'connection' } : e)),
          )
        : res;
    },
  },
  {
    name: 'audit-misses-alt-changes',
    description: 'changes made at the alternate base URL never reach the audit log (its creations are not recorded)',
    section: 'GET /api/public/v1/audit-log (appears in a sample call only)',
    catches: ['audit.records-change', 'audit.integrity', 'places.scenario-alike'],
    async handle(req, next, core) {
      const res = await next(req);
      const seen = altCreations(core);
      if (req.method === 'POST' && req.path === CONNECTIONS && res.status === 200 && req.origin) {
        // The first address a creation comes to is taken as the main one (the kit creates there first).
        seen.main ??= req.origin;
        if (req.origin !== seen.main)
          editJson(res, (b) => {
            if (typeof b.data?.id === 'string') seen.ids.add(b.data.id);
          });
      }
      if (req.path !== AUDIT || seen.ids.size === 0) return res;
      return editEntries(res, (entries) =>
        entries.filter((e) => ![...seen.ids].some((id) => JSON.stringify(e).includes(id))),
      );
    },
  },
  {
    name: 'audit-misses-other-tenants',
    description: "every tenant's audit log but the first one's is empty: the second tenant's changes are never traced",
    section: 'GET /api/public/v1/audit-log (appears in a sample call only)',
    catches: ['audit.records-change', 'places.scenario-alike'],
    async handle(req, next, core) {
      const res = await next(req);
      const tenant = req.headers['x-service-tenant'];
      if (req.path !== AUDIT || !tenant || tenant === (await defaultAccess(core)).tenant) return res;
      return editEntries(res, () => []);
    },
  },
  {
    name: 'audit-page-of-one-empty',
    description: 'GET /audit-log?limit=1 lists no entry although the log has entries (an off-by-one in the page size)',
    section: 'GET /api/public/v1/audit-log (appears in a sample call only)',
    catches: ['audit.records-change'],
    async handle(req, next) {
      const res = await next(req);
      return req.path === AUDIT && req.query.limit === '1' ? editEntries(res, () => []) : res;
    },
  },
];
