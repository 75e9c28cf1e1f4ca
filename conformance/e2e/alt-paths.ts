// The simulator's paths the alternative deployments' proxy (alt-target.ts) rewrites or serves as they are.
import { ROUTE_BY_ID, routesFor } from '../../simulator/contract/route-table.ts';
import { BASE_PATH, CURRENT_VERSION } from '../../simulator/contract/versions.ts';
import { must } from '../runner/invariant.ts';

const pathOf = (id: string) => must(ROUTE_BY_ID.get(id), `the contract defines ${id}`).path;

export const SIM_DELIVERIES = pathOf('listDeliveries');
export const SIM_REDELIVER = pathOf('redeliver');
export const AUDIT = pathOf('getAuditLog');
export const templateRegex = (template: string) =>
  new RegExp(`^${template.replace(/\{webhookId\}|\{deliveryId\}/g, '([^/]+)')}$`);
export const SIM_PATHS = [templateRegex(SIM_DELIVERIES), templateRegex(SIM_REDELIVER)];
export const SELF_DESCRIPTIONS = new Set([BASE_PATH, `${BASE_PATH}/openapi.json`, `${BASE_PATH}/openapi.yaml`]);
/** The JSON self-descriptions: reshaped as documents, their examples' states left as the simulator wrote them. */
export const DESCRIBED = new Set([BASE_PATH, `${BASE_PATH}/openapi.json`]);
export const PUBLIC = new Set([...SELF_DESCRIPTIONS, `${BASE_PATH}/stream`]);
/** Routes the simulator serves for the current version (the interface's and its additions). */
export const SIM_ROUTES = routesFor(CURRENT_VERSION);
/** Another form of an interface path (a trailing slash, a percent-encoded character): no route at the proxy, whose
 * translations match exact paths, as at gateways routing exact paths. */
export const isOtherForm = (path: string) => /^\/api\//.test(path) && (path.endsWith('/') || path.includes('%'));
