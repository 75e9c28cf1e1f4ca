import { ROUTE_BY_ID } from '../../../simulator/contract/route-table.ts';
import type { PlainRequest, PlainResponse } from '../../../simulator/index.ts';
import { must } from '../../runner/invariant.ts';
import { editJson, jsonBodyOf, withHeader, withJsonBody } from '../json-edit.ts';
import { addresses } from './match.ts';
import type { Mutant, MutationOperator } from './types.ts';

const create = must(ROUTE_BY_ID.get('createConnection'), 'the contract defines createConnection');
const check = must(ROUTE_BY_ID.get('checkCapability'), 'the contract defines checkCapability');
const isCreate = (req: PlainRequest) => addresses(create, req);

/**
 * A refused creation (answered `status`) that is written all the same: the refused body, repaired from
 * the last accepted one where it is invalid, is stored under a fresh key, and the refusal answered.
 */
function writtenDespite(status: number): Mutant {
  let template: Record<string, unknown> | undefined;
  return {
    operator: 'state',
    name: `written despite ${status}`,
    description: `a creation refused with ${status} is stored all the same`,
    section: 'POST /api/public/v1/connections',
    async handle(req, next) {
      const res = await next(req);
      if (!isCreate(req)) return res;
      const sent = jsonBodyOf(req) ?? {};
      if (res.status === 200) template = sent;
      if (res.status !== status || !template) return res;
      const label =
        typeof sent.scopeLabel === 'string' && sent.scopeLabel.length <= 120
          ? sent.scopeLabel
          : 'written-despite-refusal';
      await next(
        withHeader(
          withJsonBody(req, { ...template, scopeLabel: label.length >= 2 ? label : 'xx' }),
          'idempotency-key',
          `mut-${Date.now()}-${Math.random().toString(36).slice(2)}`,
        ),
      );
      return res;
    },
  };
}

/** Replays answer other data than the original (a changed state and a new time). */
const replayDiffers: Mutant = {
  operator: 'state',
  name: 'replay differs',
  description: 'a replay answers with another state than the original',
  section: 'POST /api/public/v1/connections',
  async handle(req, next) {
    const res = await next(req);
    if (!isCreate(req) || res.status !== 200) return res;
    return editJson(res, (b) => {
      if (b.meta?.replayed === true && b.data) b.data.state = `${String(b.data.state)}-again`;
    });
  },
};

/** Same-key creations that arrive while the first is in flight make their own connection (a check-then-insert race). */
function raceDuplicates(): Mutant {
  const inFlight = new Set<string>();
  return {
    operator: 'state',
    name: 'race duplicates',
    description: 'concurrent creations with one key each make a connection',
    section: 'POST /api/public/v1/connections',
    async handle(req, next) {
      const key = req.headers['idempotency-key'];
      if (!isCreate(req) || !key) return next(req);
      if (!inFlight.has(key)) {
        inFlight.add(key);
        try {
          // Long enough for the racing duplicates to arrive.
          await new Promise((r) => setTimeout(r, 20));
          return await next(req);
        } finally {
          inFlight.delete(key);
        }
      }
      const res = await next(withHeader(req, 'idempotency-key', `${key}-race`));
      return editJson(res, (b) => {
        if (b.meta && b.meta.idempotencyKey !== undefined) b.meta.idempotencyKey = key;
      });
    },
  };
}

/** Only the alternate base URL answers differently: in a creation's state, a decision's reason, or a refusal's code. */
const altDiffers = (
  name: string,
  description: string,
  edit: (req: PlainRequest, res: PlainResponse) => PlainResponse,
): Mutant => ({
  operator: 'alt-differs',
  name,
  description,
  section: 'Network Connections Service Interface',
  where: 'alt',
  async handle(req, next) {
    return edit(req, await next(req));
  },
});

export const stateful: MutationOperator = {
  name: 'state',
  description: 'refusals that write, replays that differ, racing duplicates',
  mutants: () => [writtenDespite(400), writtenDespite(409), writtenDespite(428), replayDiffers, raceDuplicates()],
};

export const altBase: MutationOperator = {
  name: 'alt-differs',
  description: 'the alternate base URL answers writes or refusals differently',
  mutants: () => [
    altDiffers('alt creation state', 'creations on the alternate URL start in another state', (req, res) =>
      isCreate(req) && res.status === 200
        ? editJson(res, (b) => {
            if (b.data) b.data.state = 'other-state';
          })
        : res,
    ),
    altDiffers('alt decision reason', 'capability checks on the alternate URL give another reason', (req, res) =>
      addresses(check, req) && res.status === 200
        ? editJson(res, (b) => {
            const d = b.data?.decision as { reason?: string } | undefined;
            if (d) d.reason = `${d.reason} (alternate)`;
          })
        : res,
    ),
    altDiffers(
      'alt refusal code',
      'refused requests on the alternate URL answer 404 not_found instead of 400',
      (_req, res) =>
        res.status === 400
          ? editJson({ ...res, status: 404 }, (b) => {
              if (b.error) b.error.code = 'not_found';
            })
          : res,
    ),
  ],
};

export const STATE_OPERATORS = [stateful, altBase];
