/**
 * The built page (`dist/inspector-ui`, made by `npm run build`), read once into memory.
 * The page gets the access token in a meta tag, so it can call the API after a reload
 * that dropped it from the address bar.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import { packageFile } from './package-root.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
};

export interface Asset {
  body: Buffer;
  type: string;
}

/** Where the build puts the page (`dist/inspector-ui`), from the package root: right from tsc's modules and from the bundle. */
export function defaultUiDir(): string {
  return packageFile('dist', 'inspector-ui');
}

/** Loads every file under `dir` by URL path (`/assets/index.js`); empty when the UI was not built. */
export function loadAssets(dir: string): Map<string, Asset> {
  const out = new Map<string, Asset>();
  const walk = (d: string): void => {
    let names: string[];
    try {
      names = readdirSync(d);
    } catch {
      return;
    }
    for (const name of names) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else {
        const type = TYPES[extname(name)];
        if (type) out.set('/' + relative(dir, p).split(sep).join('/'), { body: readFileSync(p), type });
      }
    }
  };
  walk(dir);
  return out;
}

const MISSING = `<!doctype html><meta charset="utf-8"><title>mcpkit inspect</title>
<p>The inspector's page was not built. Run <code>npm run build</code> in the mcpkit folder.</p>`;

/** The page, with the token and the sandbox proxy's URL in place of their placeholders. */
export function pageWithToken(assets: Map<string, Asset>, token: string, sandboxUrl: string): string {
  const html = assets.get('/index.html')?.body.toString('utf8');
  if (!html) return MISSING;
  return html.replace('%MCPKIT_TOKEN%', token).replace('%MCPKIT_SANDBOX%', sandboxUrl);
}
