#!/usr/bin/env node
// The package as a user gets it: `npm pack`, then in an empty project `npm install` of the
// tarball and zod, as docs/getting-started.md says. Checks, in order:
//   1. the optional peers (the LLM SDKs, ioredis) are not installed, and the install is no
//      larger than the official v2 server package's with zod, installed beside it (17 MB;
//      @cfworker/json-schema, the validator for Workers that the official SDK lacks, is left out);
//   2. a feature needing a missing peer fails with a PackageMissing error naming it;
//   3. the getting-started programs (every ```ts block, a fragment joined to the program it
//      names) compile with the latest TypeScript, @types/node and the page's tsconfig.json,
//      against mcpkit's .d.ts (no skipLibCheck);
//   4. they run: the client and the host start the server and call its tool; the `mcpkit`
//      command answers.
// Needs the build (`npm run build`) and an npm registry (a mirror does). CI runs it.
//
//   node scripts/pack-consumer.mjs [--keep]
import { execFileSync, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const keep = process.argv.includes('--keep');
/** The budget when the official package cannot be installed to measure it (17 MB). */
const FALLBACK_BUDGET_KB = 17 * 1024;
const OPTIONAL_PEERS = ['openai', '@anthropic-ai/sdk', 'ioredis'];

let failures = 0;
const ok = (what) => console.log(`ok   ${what}`);
const fail = (what, detail = '') => {
  failures++;
  console.log(`FAIL ${what}${detail ? `\n     ${String(detail).trim().replace(/\n/g, '\n     ')}` : ''}`);
};

if (!existsSync(join(root, 'dist/bundle/index.js')) || !existsSync(join(root, 'dist/inspector-ui'))) {
  console.error('pack-consumer: run `npm run build` first.');
  process.exit(1);
}

const work = mkdtempSync(join(tmpdir(), 'mcpkit-consumer-'));
const project = join(work, 'weather');
mkdirSync(project);
const run = (cmd, args, options = {}) =>
  spawnSync(cmd, args, { cwd: project, encoding: 'utf8', timeout: 300_000, ...options });
const npm = (...args) => run('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error']);

try {
  // The tarball, exactly what npm publish would upload (the build is already there). Scripts
  // are skipped, so the last step of `prepack` runs here: only the declarations the exports
  // reach are packed (run `npx tsc -p tsconfig.json` again before `typecheck:examples`, whose
  // prelude reads internal ones).
  execFileSync('node', [join(root, 'scripts/prune-declarations.mjs')], { cwd: root, stdio: 'inherit' });
  const packed = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], {
      cwd: root,
      encoding: 'utf8',
    }),
  );
  const tarball = join(work, packed[0].filename);

  // The page's project set-up: package.json with "type": "module", then the install.
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'weather', version: '1.0.0', private: true, type: 'module' }, null, 2),
  );
  let r = npm('install', tarball, 'zod');
  if (r.status !== 0) throw new Error(`npm install of the tarball failed:\n${r.stderr}`);

  // 1. Lean: no optional peer, and the size.
  const present = OPTIONAL_PEERS.filter((p) => existsSync(join(project, 'node_modules', p)));
  if (present.length === 0) ok(`none of the optional peers is installed (${OPTIONAL_PEERS.join(', ')})`);
  else fail('optional peers were installed', present.join(', '));
  const du = (cwd) =>
    Number(execFileSync('du', ['-sk', 'node_modules'], { cwd, encoding: 'utf8' }).split('\t')[0]);
  const kb = du(project);
  const packages = readdirSync(join(project, 'node_modules')).filter((n) => !n.startsWith('.'));
  const size = `${(kb / 1024).toFixed(1)} MB on disk (du -sk: ${kb} KB), ${packages.length} top-level packages`;
  // The official server package with zod, measured the same way on the same disk.
  const official = join(work, 'official');
  mkdirSync(official);
  writeFileSync(join(official, 'package.json'), JSON.stringify({ name: 'official', private: true }));
  const off = run(
    'npm',
    ['install', '@modelcontextprotocol/server', 'zod', '--no-audit', '--no-fund', '--loglevel=error'],
    {
      cwd: official,
    },
  );
  const budget = off.status === 0 ? du(official) : FALLBACK_BUDGET_KB;
  const against =
    off.status === 0
      ? `@modelcontextprotocol/server with zod takes ${budget} KB`
      : `the budget is ${FALLBACK_BUDGET_KB} KB (the official package could not be installed)`;
  // Like for like: the official SDK has no JSON Schema validator for runtimes that refuse
  // code generation (Cloudflare Workers); mcpkit's (@cfworker/json-schema) is shown and left
  // out of the comparison.
  const interpreter = join(project, 'node_modules', '@cfworker', 'json-schema');
  const extraKb = existsSync(interpreter)
    ? Number(execFileSync('du', ['-sk', interpreter], { encoding: 'utf8' }).split('\t')[0])
    : 0;
  const compared = `${size}, of which @cfworker/json-schema (the Workers validator) ${extraKb} KB`;
  if (kb - extraKb <= budget) ok(`a server install with zod takes ${compared}; ${against}`);
  else fail(`a server install with zod takes ${compared}, more than allowed: ${against}`);

  // 2. A missing optional peer is named, with the command that installs it.
  const probe = `
    import { OpenAiProvider, AnthropicProvider } from 'mcpkit/host';
    import { connectRedisStores } from 'mcpkit/redis';
    const params = { messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 5 };
    const attempts = {
      openai: () => new OpenAiProvider({ name: 'o', apiKey: 'k' }).complete('m', params),
      '@anthropic-ai/sdk': () => new AnthropicProvider({ name: 'a', apiKey: 'k' }).complete('m', params),
      ioredis: () => connectRedisStores('redis://127.0.0.1:1'),
    };
    for (const [pkg, attempt] of Object.entries(attempts)) {
      try { await attempt(); console.log(pkg + ': no error'); }
      catch (e) { console.log(pkg + ': ' + e.name + ' ' + e.code + ' ' + e.message); }
    }`;
  r = run(process.execPath, ['--input-type=module', '-e', probe]);
  for (const pkg of OPTIONAL_PEERS) {
    const line = r.stdout.split('\n').find((l) => l.startsWith(`${pkg}: `)) ?? '';
    if (line.includes('LocalError PackageMissing') && line.includes(`npm install ${pkg}`))
      ok(`without ${pkg}: ${line.slice(pkg.length + 2)}`);
    else fail(`without ${pkg}, no PackageMissing error naming it`, line || r.stderr);
  }

  // 3. The getting-started files, compiled as the page says.
  r = npm('install', '--save-dev', 'typescript@latest', '@types/node');
  if (r.status !== 0) throw new Error(`npm install of typescript failed:\n${r.stderr}`);
  const files = gettingStartedFiles(readFileSync(join(root, 'docs/getting-started.md'), 'utf8'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(project, name), text);
  const tsc = run(process.execPath, [join(project, 'node_modules/typescript/bin/tsc'), '--version']);
  r = run(process.execPath, [join(project, 'node_modules/typescript/bin/tsc'), '-p', '.']);
  const sources = Object.keys(files).filter((f) => f.endsWith('.ts'));
  if (r.status === 0) ok(`${tsc.stdout.trim()} compiles ${sources.join(', ')} with the page's tsconfig.json`);
  else fail(`${tsc.stdout.trim()} does not compile the getting-started files`, r.stdout + r.stderr);

  // 4. They run.
  if (existsSync(join(project, 'dist/client.js'))) {
    r = run(process.execPath, ['dist/client.js'], { timeout: 60_000 });
    if (r.status === 0 && /forecast/.test(r.stdout) && /Sunny in Oslo/.test(r.stdout))
      ok('node dist/client.js starts the server, lists its tools and calls forecast');
    else fail('node dist/client.js', r.stdout + r.stderr);
    r = run(process.execPath, ['dist/host.js'], { input: 'y\n', timeout: 60_000 });
    if (r.status === 0 && /weather__forecast/.test(r.stdout) && /Sunny in Oslo/.test(r.stdout))
      ok('node dist/host.js asks to start the server, lists the catalog and calls weather__forecast');
    else fail('node dist/host.js', r.stdout + r.stderr);
  }
  r = run(join(project, 'node_modules/.bin/mcpkit'), ['tools', '--', process.execPath, 'dist/server.js'], {
    timeout: 60_000,
  });
  if (r.status === 0 && /forecast/.test(r.stdout))
    ok('npx mcpkit tools -- node dist/server.js lists forecast');
  else fail('npx mcpkit tools -- node dist/server.js', r.stdout + r.stderr);
} catch (e) {
  fail('the consumer project', e instanceof Error ? e.message : e);
} finally {
  if (keep) console.log(`kept: ${project}`);
  else rmSync(work, { recursive: true, force: true });
}
console.log(failures === 0 ? 'pack-consumer: all checks passed' : `pack-consumer: ${failures} failed`);
process.exit(failures === 0 ? 0 : 1);

/**
 * The files docs/getting-started.md gives: tsconfig.json and mcp.json (its JSON blocks with
 * `compilerOptions` and `mcpServers`), each ```ts block whose first line names its file
 * (`// server.ts`), and each fragment (`// fragment of server.ts`) joined to the end of the
 * program it names, as `server.fragment-N.ts`.
 */
function gettingStartedFiles(page) {
  const blocks = [...page.matchAll(/^```(\w+)[^\n]*\n([\s\S]*?)^```$/gm)].map((m) => ({
    lang: m[1],
    text: m[2],
  }));
  const files = {};
  let fragments = 0;
  for (const { lang, text } of blocks) {
    if (lang === 'json' && text.includes('"compilerOptions"')) files['tsconfig.json'] = text;
    if (lang === 'json' && text.includes('"mcpServers"')) files['mcp.json'] = text;
    if (lang !== 'ts') continue;
    const first = text.split('\n')[0];
    const named = /^\/\/ ([\w.-]+\.ts)$/.exec(first);
    const fragment = /^\/\/ fragment of ([\w.-]+\.ts)\b/.exec(first);
    if (named) files[named[1]] = text;
    else if (fragment) {
      const base = files[fragment[1]];
      if (base === undefined) throw new Error(`a fragment of ${fragment[1]} comes before it`);
      files[fragment[1].replace(/\.ts$/, `.fragment-${++fragments}.ts`)] = `${base}\n${text}`;
    } else throw new Error(`a ts block of getting-started names no file: ${first}`);
  }
  for (const needed of ['tsconfig.json', 'mcp.json', 'server.ts', 'client.ts', 'host.ts'])
    if (files[needed] === undefined) throw new Error(`getting-started gives no ${needed}`);
  return files;
}
