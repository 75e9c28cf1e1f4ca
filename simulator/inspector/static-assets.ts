import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

/**
 * Beside this module (sources, the library's dist/simulator/inspector/, a bundle built with its own copy);
 * the packed package's CLI bundle (dist/cli/) reads the library's copy instead of carrying a second one.
 */
const near = fileURLToPath(new URL('./assets/', import.meta.url));
export const ASSETS_DIR = existsSync(near)
  ? near
  : fileURLToPath(new URL('../simulator/inspector/assets/', import.meta.url));

/**
 * The page's static files, read once into memory. Only names found in the folder are ever served,
 * so no request path can reach another file.
 * @example const assets = loadAssets(); assets.get('app.js')?.type // 'text/javascript; charset=utf-8'
 */
export function loadAssets(dir = ASSETS_DIR): Map<string, { type: string; body: string }> {
  const out = new Map<string, { type: string; body: string }>();
  for (const name of readdirSync(dir)) {
    const type = TYPES[extname(name)];
    if (type) out.set(name, { type, body: readFileSync(join(dir, name), 'utf8') });
  }
  return out;
}
