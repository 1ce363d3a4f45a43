// The published entry points are the bundle (dist/bundle/, scripts/bundle.mjs): every `exports`
// entry imported by package name resolves there, exports exactly what tsc's module does, defines
// each class once (one chunk holds it, so `instanceof` and module state agree across entries), loads a handful of files and nothing of tsc's dist/, and the bundled CLI
// (the `bin`) finds the package's files from its chunk.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
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

  test('every exported class is defined once in the bundle, so instanceof holds across entries', async () => {
    // An error thrown by mcpkit/server's code must be an instance of the root's WireError: the
    // bundle must keep each class in one chunk, never copy it into two entries.
    const files = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
        d.isDirectory() ? files(join(dir, d.name)) : d.name.endsWith('.js') ? [join(dir, d.name)] : [],
      );
    const code = files(join(root, 'dist/bundle'))
      .map((f) => readFileSync(f, 'utf8'))
      .join('\n');
    let classes = 0;
    for (const spec of specifiers)
      for (const [name, value] of Object.entries((await import(spec)) as Record<string, unknown>)) {
        if (typeof value !== 'function' || !/^class\b/.test(Function.prototype.toString.call(value)))
          continue;
        classes++;
        // rolldown writes `var Name=class` (whitespace is dropped); a Node entry's subclass of a portable class of
        // the same name (OAuthClient, GuardedFetch) extends the imported one, renamed `Name$1`.
        const definition = new RegExp(
          `\\b(?:var|let|const) ${name} ?= ?class(?! extends ${name}\\$)|\\bclass ${name}\\b`,
          'g',
        );
        const copies = code.match(definition)?.length ?? 0;
        assert.equal(copies, 1, `${spec}: class ${name} is defined ${copies} times in dist/bundle`);
      }
    assert.ok(classes > 20, `only ${classes} classes exported`);
  });

  test('mcpkit and the role entries load a few bundle files, no Node module, no dependency', () => {
    for (const [spec, most] of [
      ['mcpkit', 9],
      ['mcpkit/server', 9],
      ['mcpkit/client', 4],
      ['mcpkit/advanced', 5],
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
    // entry, chunks included (a dynamic import() is loaded on first use, not at load). The
    // bundles have no whitespace between statements: a statement starts a line or follows `;`.
    const staticImports =
      /(?:^|;)\s*(?:import|export)\b[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]|(?:^|;)\s*import\s*['"]([^'"]+)['"]/gm;
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
    // The Node build of mcpkit/http-server is the one that brings Node modules (the listener's
    // node:buffer); serve() imports node:http when it is first called.
    const onNode = (pkg.exports['./http-server'] as { node: { default: string } }).node.default;
    assert.ok(builtinsOf(onNode).includes('node:buffer'), onNode);
    assert.ok(!builtinsOf(onNode).includes('node:http'), onNode);
  });

  test('a Worker or a browser gets the fetch core of mcpkit/http-server; Node gets serve too', () => {
    for (const condition of ['workerd', 'worker', 'browser']) {
      const r = traceModules([
        `--conditions=${condition}`,
        '--input-type=module',
        '-e',
        "const m = await import('mcpkit/http-server'); console.log(typeof m.fetchHandler, typeof m.serve);",
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
