// Edits of the served OpenAPI document shared by the violations that change only what the deployment says
// about itself (the document), never what it does.
import { BASE_PATH } from '../../simulator/contract/versions.ts';
import { editJson } from './json-edit.ts';
import type { Violation } from './types.ts';

export type Node = Record<string, unknown>;

const OPENAPI = `${BASE_PATH}/openapi.json`;

/**
 * Calls `edit` on every object of a JSON document, depth first (schemas sit in paths and in components).
 * @example everyObject(doc, (node) => void delete node.pattern);
 */
export function everyObject(value: unknown, edit: (node: Node) => void): void {
  if (Array.isArray(value)) for (const v of value) everyObject(v, edit);
  else if (value && typeof value === 'object') {
    edit(value as Node);
    for (const v of Object.values(value)) everyObject(v, edit);
  }
}

/**
 * The served openapi.json, edited (only the document: what the deployment does is unchanged).
 * @example handle: documentEdit((doc) => void delete doc.servers)
 */
export const documentEdit = (edit: (doc: Node) => void): Violation['handle'] =>
  async function handle(req, next) {
    const res = await next(req);
    return req.path === OPENAPI && res.status === 200 ? editJson(res, (b) => edit(b as unknown as Node)) : res;
  };
