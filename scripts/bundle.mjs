// Bundles the public entry points (package.json `exports` and the `bin`) from tsc's output in
// dist/ into dist/bundle/: one file per entry plus shared chunks, so an import loads a handful
// of modules instead of a hundred (Node's ESM loader costs about 0.2 ms per module).
// Code splitting keeps every class in exactly one chunk, so `WireError` from `mcpkit` and from
// `mcpkit/advanced` is the same object; a dynamic import() stays lazy as its own chunk. Every
// package dependency stays external, so optional ones (ioredis, the LLM SDKs) still load only
// when used. tsc keeps emitting dist/ (types, tests); run after it: `npm run build` does both.
//
//   node scripts/bundle.mjs
import { readFileSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const root = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const OUT = 'dist/bundle/';

/** Each bundle entry's name and tsc's module it starts from, read from `exports` and `bin`. */
const input = {};
const add = (target, source) => {
  if (!target.startsWith(`./${OUT}`)) throw new Error(`bundle: ${target} is not under ${OUT}`);
  const name = basename(target, '.js');
  const from = join(root, source);
  if (input[name] !== undefined && input[name] !== from)
    throw new Error(`bundle: two sources for ${name}: ${input[name]} and ${from}`);
  input[name] = from;
};
const walk = (entry) => {
  if (typeof entry !== 'object') return;
  if (typeof entry.types === 'string' && typeof entry.default === 'string')
    add(entry.default, entry.types.replace(/\.d\.ts$/, '.js'));
  for (const value of Object.values(entry)) walk(value);
};
walk(pkg.exports);
// The CLI: tsc's dist/cli/main.js is the source, the bin is its bundle.
add(`./${pkg.bin.mcpkit}`, 'dist/cli/main.js');

rmSync(join(root, OUT), { recursive: true, force: true });
await build({
  input,
  platform: 'node',
  // Our code is the only relative import; every bare specifier (a dependency, a node: builtin)
  // stays an import, so nothing of a dependency is copied in and optional ones stay optional.
  external: (id) => !id.startsWith('.') && !id.startsWith('/') && !id.startsWith('\0'),
  logLevel: 'warn',
  output: {
    dir: join(root, OUT),
    format: 'esm',
    entryFileNames: '[name].js',
    chunkFileNames: 'chunks/[name]-[hash].js',
    // The frame layer and the protocol's tables are small and reached by nearly every entry;
    // left to the default they split into one chunk per set of entries reaching them, several
    // tiny files an import pays for one by one. One chunk holds them all, except the two
    // validators, which import Ajv or @cfworker/json-schema and load on first use. The
    // interceptor model (session/interceptors.js, 5 KB, importing only jsonrpc) joins them:
    // server and client both run it, and on its own it was one more file for every role entry.
    // So does telemetry/load.js (a few lines that import the telemetry layer on first use),
    // which mcpkit/advanced exports and which was otherwise a chunk of its own.
    codeSplitting: {
      groups: [
        {
          name: 'core',
          test: /[\\/]dist[\\/]((jsonrpc|protocol)[\\/](?!types[\\/]|apps\.js|ajv-validator\.js|interpreting-validator\.js)[^\\/]+|session[\\/]interceptors|telemetry[\\/]load)\.js$/,
        },
      ],
    },
    // Whitespace only: names stay as written (stack traces and `instanceof` read as the
    // source does), and the install is about a quarter smaller.
    minify: { compress: false, mangle: false, codegen: { removeWhitespace: true } },
    sourcemap: false,
  },
});
