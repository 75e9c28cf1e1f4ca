import { serve, type ServeOptions } from '../adapters/node-server.ts';

export interface ServeCommandOptions {
  host: string;
  port: string;
  altPort?: string;
  fixtures?: string;
  readyFile?: string;
  quiet?: boolean;
  allowBrowserCredentials?: boolean;
  tokenTtl?: string;
  adminToken?: string;
  violation?: string;
}

/**
 * `ncs serve`: starts the HTTP simulator, prints the banner, stops cleanly on SIGINT/SIGTERM.
 * @example await runServe({ host: '127.0.0.1', port: '4010' });
 */
export async function runServe(opts: ServeCommandOptions, out: (line: string) => void = (l) => process.stdout.write(`${l}\n`)) {
  const options: ServeOptions = {
    host: opts.host,
    port: Number(opts.port),
    ...(opts.altPort !== undefined ? { altPort: Number(opts.altPort) } : {}),
    ...(opts.fixtures ? { fixtures: opts.fixtures } : {}),
    ...(opts.readyFile ? { readyFile: opts.readyFile } : {}),
    ...(opts.quiet ? {} : { log: out }),
    ...(opts.allowBrowserCredentials ? { allowBrowserCredentials: true } : {}),
    ...(opts.tokenTtl ? { tokenTtlSeconds: Number(opts.tokenTtl) } : {}),
    ...(opts.adminToken ?? process.env.NCS_ADMIN_TOKEN ? { adminToken: opts.adminToken ?? process.env.NCS_ADMIN_TOKEN } : {}),
    ...(opts.violation ? { violation: opts.violation } : {}),
  };
  const running = await serve(options);
  const api = `${running.baseUrl}/api/public/v1`;
  out(`ncs sandbox listening on ${running.baseUrl}${running.altBaseUrl ? ` and ${running.altBaseUrl} (alternate base URL)` : ''}`);
  if (opts.violation) out(`  VIOLATION   ${opts.violation}: this simulator breaks the interface on purpose (conformance self-test)`);
  out(`  interface   ${api}   (OpenAPI: ${api}/openapi.json)`);
  out(`  tenant      ${running.tenant}`);
  out(`  token       ${running.token}`);
  out(`  admin token ${running.sandbox.adminToken}   (control plane only)`);
  out(`  try: curl -s ${api}/providers -H "Authorization: Bearer $NCS_TOKEN" -H "x-service-tenant: ${running.tenant}"`);
  const stop = (signal: string) => {
    out(`received ${signal}, shutting down`);
    running.close().then(() => process.exit(0));
    setTimeout(() => process.exit(0), 5000).unref();
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
  return running;
}
