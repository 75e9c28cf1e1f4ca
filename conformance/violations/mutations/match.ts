import type { RouteDef } from '../../../simulator/contract/route-def.ts';
import type { PlainRequest, PlainResponse } from '../../../simulator/index.ts';
import { type Envelope, editJson } from '../json-edit.ts';
import type { Mutant } from './types.ts';

const templates = new Map<string, RegExp>();
/** Whether a request addresses the route (method and path template). */
export function addresses(route: RouteDef, req: PlainRequest): boolean {
  let re = templates.get(route.id);
  if (!re) {
    re = new RegExp(`^${route.path.replace(/\{[^}]+\}/g, '[^/]+')}/?$`);
    templates.set(route.id, re);
  }
  return req.method === route.method && re.test(req.path);
}

/**
 * A mutant that edits the JSON body of the route's answers with status `status` (default 200),
 * or of every JSON answer when `route` is undefined.
 * @example answerEdit('drop', 'createConnection data.id', route, (b) => delete b.data!.id)
 */
export function answerEdit(
  operator: string,
  name: string,
  description: string,
  route: RouteDef | undefined,
  edit: (body: Envelope, req: PlainRequest, res: PlainResponse) => void,
  status: number | 'any' = 200,
): Mutant {
  return {
    operator,
    name,
    description,
    section: 'Resources and their fields',
    async handle(req, next) {
      const res = await next(req);
      if (route && !addresses(route, req)) return res;
      if (status !== 'any' && res.status !== status) return res;
      return editJson(res, (b) => edit(b, req, res));
    },
  };
}
