// The alternative deployments' YAML description: rendered from the deployment's own openapi.json (reshaped by
// its proxy), so the two files are one description, as the interface offers them.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { stringify } from 'yaml';
import { forwardable } from './alt-relay.ts';

/**
 * Answers GET …/openapi.yaml with the YAML of `jsonUrl` as this deployment serves it (a non-200 passed on).
 * @example await serveYamlOf(`${origin}${BASE_PATH}/openapi.json${url.search}`, req, res);
 */
export async function serveYamlOf(jsonUrl: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const json = await fetch(jsonUrl, { headers: forwardable(req.headers) });
  const text = await json.text();
  if (json.status !== 200) {
    res.writeHead(json.status, { 'content-type': json.headers.get('content-type') ?? 'application/json' });
    return void res.end(text);
  }
  res.writeHead(200, { 'content-type': 'application/yaml; charset=utf-8' });
  res.end(stringify(JSON.parse(text)));
}
