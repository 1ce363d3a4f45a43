// The published entry points are the bundle (dist/bundle/, scripts/bundle.mjs): every `exports`
// entry imported by package name resolves there, exports exactly what tsc's module does, shares
// each class with the other entries (one chunk holds it, so `instanceof` and module state agree
// across entries), loads a handful of files and nothing of tsc's dist/, and the bundled CLI
// (the `bin`) finds the package's files from its chunk.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { cliScript, packageFile } from './inspector/package-root.js';
import { defaultUiDir } from './inspector/static-assets.js';
import { modulesLoadedBy, traceModules } from './test-support/loaded-modules.js';

const root = fileURLToPath(new URL('../', import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  name: string;
  bin: { mcpkit: string };
  exports: Record<string, unknown>;
};

/** Every import specifier the package offers, `mcpkit/server` and the like. */
const specifiers = Object.keys(pkg.exports)
  .filter((sub) => sub !== './package.json')
  .map((sub) => (sub === '.' ? pkg.name : `${pkg.name}/${sub.slice(2)}`));

/** tsc's module for an entry under node's conditions: the .js beside the .d.ts it names. */
function tscModule(sub: string): string {
  const e = pkg.exports[sub] as { types: string; node?: { types: string } };
  return pathToFileURL(join(root, (e.node?.types ?? e.types).replace(/\.d\.ts$/, '.js'))).href;
}

/** The files of ours a fresh process loads to import `specifier`; fails on any other kind. */
function ourFiles(specifier: string): string[] {
  const loaded = modulesLoadedBy(`await import(${JSON.stringify(specifier)});`);
  const ours = loaded.filter((m) => m.startsWith('file:') && !m.includes('/node_modules/'));
  for (const m of ours) assert.ok(m.includes('/dist/bundle/'), `${specifier} loaded tsc's ${m}`);
  return ours.map((m) => m.replace(/^.*\/dist\/bundle\//, ''));
}

describe('the bundled entry points', () => {
  test('every exports entry, imported by name, is the bundle and exports what tsc built', async () => {
    assert.ok(specifiers.length >= 15, specifiers.join(' '));
    for (const spec of specifiers) {
      assert.match(import.meta.resolve(spec), /\/dist\/bundle\/[a-z-]+\.js$/, spec);
      const bundled = Object.keys((await import(spec)) as object).sort();
      const sub = spec === pkg.name ? '.' : `./${spec.slice(pkg.name.length + 1)}`;
      const built = Object.keys((await import(tscModule(sub))) as object).sort();
      assert.deepEqual(bundled, built, spec);
    }
  });

  test('a name two entries export is one object in the bundle exactly when it is in tsc output', async () => {
    // Not every shared name is one object: mcpkit/host's loadHostConfig forwards to mcpkit/host/node's,
    // and auth/node's openInBrowser is another function than host/node's. The bundle must keep
    // tsc's identities, neither splitting a class in two nor merging two.
    const loaded = new Map<string, Record<string, unknown>>();
    const built = new Map<string, Record<string, unknown>>();
    for (const spec of specifiers) {
      loaded.set(spec, (await import(spec)) as Record<string, unknown>);
      const sub = spec === pkg.name ? '.' : `./${spec.slice(pkg.name.length + 1)}`;
      built.set(spec, (await import(tscModule(sub))) as Record<string, unknown>);
    }
    const first = new Map<string, string>();
    let same = 0;
    for (const [spec, mod] of loaded)
      for (const [name, value] of Object.entries(mod)) {
        const other = first.get(name);
        if (other === undefined) {
          first.set(name, spec);
          continue;
        }
        const inTsc = built.get(spec)![name] === built.get(other)![name];
        assert.equal(value === loaded.get(other)![name], inTsc, `${name}: ${spec} and ${other}`);
        if (inTsc) same++;
      }
    assert.ok(same > 20, `only ${same} names shared`);
    const rootEntry = loaded.get('mcpkit')!;
    const advanced = loaded.get('mcpkit/advanced')!;
    assert.equal(rootEntry.WireError, advanced.WireError);
    assert.equal(rootEntry.LocalError, advanced.LocalError);
    assert.equal(rootEntry.McpServer, loaded.get('mcpkit/server')!.McpServer);
    assert.equal(rootEntry.Client, loaded.get('mcpkit/client')!.Client);
    // instanceof holds across entries: an error made through one entry is the other's class.
    const WireError = advanced.WireError as new (code: number, message: string) => Error;
    assert.ok(new WireError(-32600, 'x') instanceof (rootEntry.WireError as typeof WireError));
  });

  test('mcpkit and the role entries load a few bundle files, no Node module, no dependency', () => {
    for (const [spec, most] of [
      ['mcpkit', 10],
      ['mcpkit/server', 13],
      ['mcpkit/client', 9],
      ['mcpkit/advanced', 8],
    ] as const) {
      const loaded = modulesLoadedBy(`await import(${JSON.stringify(spec)});`);
      const files = ourFiles(spec);
      assert.ok(files.length <= most, `${spec} loaded ${files.length} files: ${files.join(' ')}`);
      // The root leaves the lazily loaded parts to their first use (mcpkit/server exports them).
      if (spec === 'mcpkit')
        assert.ok(
          !files.some((f) => /task-runtime|task-receiver|subscriptions|apps|skills/.test(f)),
          files.join(' '),
        );
      assert.deepEqual(
        loaded.filter((m) => m.startsWith('node:') || m.includes('/node_modules/')),
        [],
        spec,
      );
    }
  });

  test('the default-condition bundles of the root, the roles and http-server import no Node module', () => {
    // What a worker or a browser bundler gets: each file reached by static imports from the
    // entry, chunks included (a dynamic import() is loaded on first use, not at load).
    const staticImports =
      /^\s*(?:import|export)\b[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]|^\s*import\s*['"]([^'"]+)['"]/gm;
    const builtinsOf = (target: string): string[] => {
      const seen = new Set<string>();
      const builtins: string[] = [];
      const visit = (file: string): void => {
        if (seen.has(file)) return;
        seen.add(file);
        for (const m of readFileSync(file, 'utf8').matchAll(staticImports)) {
          const spec = (m[1] ?? m[2])!;
          if (spec.startsWith('.')) visit(join(dirname(file), spec));
          else if (spec.startsWith('node:')) builtins.push(spec);
        }
      };
      visit(join(root, target));
      assert.ok(seen.size > 1, `${target} reached no chunk`);
      return builtins;
    };
    for (const sub of ['.', './server', './client', './http-server'])
      assert.deepEqual(builtinsOf((pkg.exports[sub] as { default: string }).default), [], sub);
    // The Node build of mcpkit/http-server is the one that brings node:http (serve()).
    const onNode = (pkg.exports['./http-server'] as { node: { default: string } }).node.default;
    assert.ok(builtinsOf(onNode).includes('node:http'), onNode);
  });

  test('a Worker or a browser gets the fetch core of mcpkit/http-server; Node gets serve too', () => {
    for (const condition of ['workerd', 'worker', 'browser']) {
      const r = traceModules([
        `--conditions=${condition}`,
        '--input-type=module',
        '-e',
        "const m = await import('mcpkit/http-server'); console.log(typeof m.createFetchHandler, typeof m.serve);",
      ]);
      assert.equal(r.status, 0, r.stderr);
      assert.equal(r.stdout.trim(), 'function undefined', condition);
      assert.ok(
        r.modules.some((m) => m.endsWith('/dist/bundle/http-server.js')),
        condition,
      );
      assert.deepEqual(
        r.modules.filter((m) => m.startsWith('node:')),
        [],
        condition,
      );
    }
    const onNode = modulesLoadedBy(
      "const m = await import('mcpkit/http-server'); if (typeof m.serve !== 'function') throw new Error('no serve');",
    );
    assert.ok(onNode.some((m) => m.endsWith('/dist/bundle/http-server-node.js')));
  });

  test('the bin is the bundled CLI; it finds the package root and runs the demo from its chunks', () => {
    assert.equal(pkg.bin.mcpkit, 'dist/bundle/cli.js');
    assert.equal(cliScript(), join(root, pkg.bin.mcpkit));
    assert.equal(packageFile('package.json'), join(root, 'package.json'));
    assert.equal(defaultUiDir(), join(root, 'dist', 'inspector-ui'));
    assert.ok(existsSync(join(defaultUiDir(), 'index.html')), 'inspector-ui is built');
    const help = spawnSync(process.execPath, [cliScript(), '--help'], { encoding: 'utf8', timeout: 60_000 });
    assert.equal(help.status, 0, help.stderr);
    assert.match(help.stdout, /Usage: mcpkit <command>/);
    // The demo spawns the CLI again (cliScript() from inside a bundle chunk) as its stdio server.
    const demo = spawnSync(process.execPath, [cliScript(), 'demo'], { encoding: 'utf8', timeout: 120_000 });
    assert.equal(demo.status, 0, demo.stderr);
    assert.match(demo.stdout, /consent: start "local": .*dist\/bundle\/cli\.js demo --stdio → yes/);
    assert.match(demo.stdout, /Done\./);
  });

  test('the published files hold every exports target and the bin, bundle chunks included', () => {
    const r = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
      cwd: root,
      encoding: 'utf8',
      timeout: 120_000,
    });
    assert.equal(r.status, 0, r.stderr);
    const [packed] = JSON.parse(r.stdout) as [{ files: { path: string }[] }];
    const files = new Set(packed.files.map((f) => f.path));
    const targets = (e: unknown): string[] =>
      typeof e === 'string' ? [e] : Object.values(e as Record<string, unknown>).flatMap(targets);
    for (const target of [...targets(pkg.exports), pkg.bin.mcpkit])
      assert.ok(files.has(target.replace(/^\.\//, '')), `${target} is not published`);
    const chunks = [...files].filter((f) => f.startsWith('dist/bundle/chunks/'));
    assert.ok(chunks.length > 10, `${chunks.length} chunks published`);
    for (const chunk of chunks) assert.ok(existsSync(join(root, chunk)), chunk);
  });
});
