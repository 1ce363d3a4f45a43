#!/usr/bin/env node
// Type-checks every TSDoc `@example` code block in src/**/*.ts, and every ```ts block of the
// README and docs/, against the built package; parses every host config example of the pages;
// and checks that the pages' relative links name files that exist.
//
// Each block becomes one file under .cache/tsdoc-examples/ (inside the package, so `mcpkit/...`
// resolves to dist/ through package.json's `exports`).
//
// A TSDoc example shows one API in use: its body runs inside an async function, so top-level
// `await` works and the block's own declarations shadow the prelude's. Names it uses are
// imported for it: first from the public entry points, then from the module the example
// documents (an internal helper is documented with an internal example). Its own `import`
// lines are kept. What an example leaves to the reader's application (`server`, `client`,
// `config`, an `llm`...) is declared in scripts/tsdoc-examples-prelude.d.ts.
//
// A page's block must work as pasted: it is checked as it is, a module of its own, with
// nothing imported or declared for it. A block that is not a whole program says so on its
// first line, `// fragment of NAME`, and is checked joined to the end of NAME: the page's
// block whose first line is `// NAME`, or the repository's file NAME (`examples/client.ts`).
//
// Run after `npm run build`. Exit code 1 lists each failing example by source file and line.
// `--pages FILE.md...` checks only those pages' blocks (no TSDoc examples).
import { mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync, copyFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import ts from 'typescript';

const root = new URL('..', import.meta.url).pathname;
const src = join(root, 'src');
const dist = join(root, 'dist');
const pagesArg = process.argv.indexOf('--pages');
const onlyPages = pagesArg < 0 ? undefined : process.argv.slice(pagesArg + 1);
// A run over chosen pages gets folders of its own, so it may run beside the full check.
const suffix = onlyPages ? `-${process.pid}` : '';
const out = join(root, '.cache', `tsdoc-examples${suffix}`);
const pagesOut = join(root, '.cache', `doc-blocks${suffix}`);

/** Names an example may use without importing them, and where they come from. */
const AMBIENT_IMPORTS = {
  z: "import { z } from 'zod';",
  join: "import { join } from 'node:path';",
  homedir: "import { homedir } from 'node:os';",
  readFile: "import { readFile } from 'node:fs/promises';",
  http: "import http from 'node:http';",
};

/** Public entry points, most general first: a name is imported from the first that has it. */
const ENTRIES = [
  ['mcpkit', 'index.d.ts'],
  ['mcpkit/types', 'protocol/types/index.d.ts'],
  ['mcpkit/server', 'server/index.d.ts'],
  ['mcpkit/client', 'client/index.d.ts'],
  ['mcpkit/stdio', 'transports/stdio/index.d.ts'],
  ['mcpkit/http-server', 'serve/http-server-node.d.ts'],
  ['mcpkit/post-message', 'transports/post-message/index.d.ts'],
  ['mcpkit/http-client', 'transports/http-client/node.d.ts'],
  ['mcpkit/auth', 'auth/index.d.ts'],
  ['mcpkit/auth/node', 'auth/node.d.ts'],
  ['mcpkit/host', 'host/index.d.ts'],
  ['mcpkit/host/node', 'host/node.d.ts'],
  ['mcpkit/advanced', 'advanced.d.ts'],
];

function walk(dir, acc = []) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, acc);
    else if (
      name.endsWith('.ts') &&
      !name.endsWith('.d.ts') &&
      !name.includes('.test.') &&
      !name.includes('test-helpers')
    )
      acc.push(p);
  }
  return acc;
}

/** Every ```ts block inside a `@example` tag: its code and the source line it starts on. */
function examplesIn(file) {
  const lines = readFileSync(file, 'utf8').split('\n');
  const found = [];
  let inExample = false;
  let code;
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i].replace(/^\s*\*\s?/, '');
    if (/@example\b/.test(lines[i])) inExample = true;
    else if (/^\s*\*\//.test(lines[i]) || /^\s*\*\s*@\w+/.test(lines[i])) inExample = false;
    if (!inExample) continue;
    if (code === undefined && /^```(ts|typescript)\s*$/.test(text)) code = { line: i + 2, text: [] };
    else if (code !== undefined && /^```\s*$/.test(text)) {
      found.push({ line: code.line, code: code.text.join('\n') });
      code = undefined;
    } else if (code !== undefined) code.text.push(text);
  }
  return found;
}

/** Names exported by each .d.ts module, read with the compiler so re-exports are followed. */
function exportsOf(files) {
  const program = ts.createProgram(files, {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    noEmit: true,
    skipLibCheck: true,
  });
  const checker = program.getTypeChecker();
  const result = new Map();
  for (const file of files) {
    const sf = program.getSourceFile(file);
    const symbol = sf && checker.getSymbolAtLocation(sf);
    result.set(file, new Set(symbol ? checker.getExportsOfModule(symbol).map((s) => s.name) : []));
  }
  return result;
}

if (!statSync(join(dist, 'index.d.ts'), { throwIfNoEntry: false })) {
  console.error('dist/ is missing: run `npm run build` first.');
  process.exit(1);
}

/** Every ```ts block of a Markdown page (the README and docs/). */
function markdownBlocks(file) {
  const lines = readFileSync(file, 'utf8').split('\n');
  const found = [];
  let code;
  for (let i = 0; i < lines.length; i++) {
    if (code === undefined && /^```(ts|typescript)\s*$/.test(lines[i])) code = { line: i + 2, text: [] };
    else if (code !== undefined && /^```\s*$/.test(lines[i])) {
      found.push({ line: code.line, code: code.text.join('\n'), markdown: true });
      code = undefined;
    } else if (code !== undefined) code.text.push(lines[i]);
  }
  return found;
}

const sources = onlyPages ? [] : walk(src).sort();
const pages =
  onlyPages ??
  [
    join(root, 'README.md'),
    ...readdirSync(join(root, 'docs'), { recursive: true })
      .filter((f) => String(f).endsWith('.md'))
      .map((f) => join(root, 'docs', String(f))),
  ].filter((f) => statSync(f, { throwIfNoEntry: false }));
const examples = sources.flatMap((file) => examplesIn(file).map((e) => ({ ...e, file })));
const pageBlocks = pages.flatMap((file) => markdownBlocks(file).map((e) => ({ ...e, file })));
const entryFiles = ENTRIES.map(([, d]) => join(dist, d));
const ownFiles = [
  ...new Set(examples.map((e) => join(dist, relative(src, e.file)).replace(/\.ts$/, '.d.ts'))),
];
const exported = exportsOf([...entryFiles, ...ownFiles]);

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
copyFileSync(join(root, 'scripts', 'tsdoc-examples-prelude.d.ts'), join(out, 'prelude.ts')); // .ts, not .d.ts: skipLibCheck would skip it

const origin = new Map();
examples.forEach((example, index) => {
  const body = example.code.split('\n');
  const ownImports = body.filter((l) => /^import\s/.test(l));
  const code = body.filter((l) => !/^import\s/.test(l)).join('\n');
  const taken = new Set(
    ownImports.flatMap((l) => [...l.matchAll(/\b([A-Za-z_$][\w$]*)\b/g)].map((m) => m[1])),
  );
  const used = new Set([...code.matchAll(/(?<![.\w$'"`])([A-Za-z_$][\w$]*)\b/g)].map((m) => m[1]));
  const imports = new Map();
  const own = join(dist, relative(src, example.file)).replace(/\.ts$/, '.d.ts');
  for (const name of used) {
    if (taken.has(name)) continue;
    // The documented module first: two entry points may export different things by one name.
    const entry = ENTRIES.find(([, d]) => exported.get(join(dist, d))?.has(name));
    const from = exported.get(own)?.has(name) ? own.replace(/\.d\.ts$/, '.js') : entry?.[0];
    if (!from) continue;
    if (!imports.has(from)) imports.set(from, []);
    imports.get(from).push(name);
  }
  const name = `example-${String(index).padStart(3, '0')}.ts`;
  const header = [
    ...Object.entries(AMBIENT_IMPORTS)
      .filter(([n]) => used.has(n) && !taken.has(n))
      .map(([, line]) => line),
    ...[...imports].map(([from, names]) => `import { ${names.sort().join(', ')} } from '${from}';`),
    ...ownImports,
  ];
  writeFileSync(
    join(out, name),
    `${header.join('\n')}\n\nexport async function example(): Promise<void> {\n${code}\n}\n`,
  );
  origin.set(name, { ...example, headerLines: header.length + 2 });
});

const options = {
  target: ts.ScriptTarget.ES2022,
  lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  strict: true,
  noEmit: true,
  skipLibCheck: true,
  types: ['node'],
  typeRoots: [join(root, 'node_modules', '@types')],
};
const program = ts.createProgram(
  readdirSync(out).map((f) => join(out, f)),
  options,
);
const diagnostics = ts.getPreEmitDiagnostics(program).filter((d) => d.file?.fileName.startsWith(out));
for (const d of diagnostics) {
  const name = relative(out, d.file.fileName);
  if (name === 'prelude.ts') {
    console.error(
      `scripts/tsdoc-examples-prelude.d.ts: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`,
    );
    continue;
  }
  const example = origin.get(name);
  const { line } = d.file.getLineAndCharacterOfPosition(d.start ?? 0);
  const where =
    example && line >= example.headerLines
      ? `${relative(root, example.file)}:${example.line + line - example.headerLines}`
      : `${relative(root, example?.file ?? name)}:${example?.line} (imports)`;
  console.error(`${where}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}  [${name}]`);
}

// The pages' blocks, as pasted: each its own module, a fragment joined to the end of the
// program it names, nothing added.
rmSync(pagesOut, { recursive: true, force: true });
mkdirSync(pagesOut, { recursive: true });
const pageOrigin = new Map();
let pageErrors = 0;
const firstLine = (code) => code.split('\n')[0].trim();
pageBlocks.forEach((block, index) => {
  const name = `block-${String(index).padStart(3, '0')}.ts`;
  const fragmentOf = /^\/\/ fragment of (\S+?)(:|$|\s)/.exec(firstLine(block.code))?.[1];
  let base = '';
  if (fragmentOf !== undefined) {
    const named = pageBlocks.filter((b) => b.file === block.file && firstLine(b.code) === `// ${fragmentOf}`);
    const path = join(root, fragmentOf);
    if (named.length === 1) base = named[0].code;
    else if (named.length === 0 && statSync(path, { throwIfNoEntry: false })?.isFile())
      base = readFileSync(path, 'utf8');
    else {
      console.error(
        `${relative(root, block.file)}:${block.line}: a fragment of ${fragmentOf}, which ${named.length > 1 ? 'several blocks of the page name' : 'neither a block of the page (first line "// ' + fragmentOf + '") nor a file of the repository is'}`,
      );
      pageErrors++;
      return;
    }
    base = `${base.replace(/\n*$/, '')}\n`;
  }
  writeFileSync(join(pagesOut, name), `${base}${block.code}\n`);
  pageOrigin.set(name, { ...block, baseLines: base === '' ? 0 : base.split('\n').length - 1, fragmentOf });
});
const pageProgram = ts.createProgram(
  readdirSync(pagesOut).map((f) => join(pagesOut, f)),
  { ...options, moduleDetection: ts.ModuleDetectionKind.Force },
);
const pageDiagnostics = ts
  .getPreEmitDiagnostics(pageProgram)
  .filter((d) => d.file?.fileName.startsWith(pagesOut));
for (const d of pageDiagnostics) {
  const name = relative(pagesOut, d.file.fileName);
  const block = pageOrigin.get(name);
  const { line } = d.file.getLineAndCharacterOfPosition(d.start ?? 0);
  const where =
    line >= block.baseLines
      ? `${relative(root, block.file)}:${block.line + line - block.baseLines}`
      : `${relative(root, block.file)}:${block.line} (in ${block.fragmentOf}, line ${line + 1}, which it is joined to)`;
  console.error(`${where}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}  [doc-blocks/${name}]`);
}

// Host config examples in the pages: every ```json block with servers must parse as a config.
const { parseHostConfig } = await import(join(dist, 'host', 'config', 'config-parse.js'));
let configs = 0;
let configErrors = 0;
for (const file of pages) {
  const lines = readFileSync(file, 'utf8').split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (!/^```json\s*$/.test(lines[i])) continue;
    const start = i + 1;
    while (i + 1 < lines.length && !/^```\s*$/.test(lines[++i]));
    const text = lines.slice(start, i).join('\n');
    let value;
    try {
      value = JSON.parse(text);
    } catch (e) {
      console.error(`${relative(root, file)}:${start + 1}: not valid JSON: ${e.message}`);
      configErrors++;
      continue;
    }
    if (!value || typeof value !== 'object' || !('mcpServers' in value || 'servers' in value)) continue;
    configs++;
    // Every ${NAME} and ${input:id} the example uses is given a value.
    const env = { HOME: '/home/me' };
    const inputs = {};
    for (const [, body] of text.matchAll(/\$\{([^}]+)\}/g)) {
      const name = body.split(':-')[0];
      if (name.startsWith('input:')) inputs[name.slice(6)] = 'value';
      // A path-like value per name, long enough for a gateway token and different for each.
      else env[name.replace(/^env:/, '')] ??= `/value/of/${name.replace(/^env:/, '')}`;
    }
    try {
      parseHostConfig(value, { env, inputs, variables: { workspaceFolder: '/home/me/project' } });
    } catch (e) {
      console.error(`${relative(root, file)}:${start + 1}: the host config does not parse:\n${e.message}`);
      configErrors++;
    }
  }
}

// Relative links in the pages must name files that exist (the docs stand alone: no link
// leaves the repository except to a web address).
let linkErrors = 0;
for (const file of pages) {
  const text = readFileSync(file, 'utf8');
  for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    if (/^[a-z]+:/.test(target) || target.startsWith('#')) continue;
    const path = join(dirname(file), target.split('#')[0]);
    if (!statSync(path, { throwIfNoEntry: false }) || !path.startsWith(root)) {
      console.error(`${relative(root, file)}: the link ${target} names nothing in the repository`);
      linkErrors++;
    }
  }
}

const total = diagnostics.length + pageDiagnostics.length + pageErrors + configErrors + linkErrors;
const files = new Set([...examples, ...pageBlocks].map((e) => e.file)).size;
console.error(
  `${examples.length} TSDoc examples, ${pageBlocks.length} page blocks (as pasted) and ${configs} host configs in ${files} files, ${total} errors.`,
);
if (onlyPages) {
  rmSync(out, { recursive: true, force: true });
  rmSync(pagesOut, { recursive: true, force: true });
}
process.exit(total === 0 ? 0 : 1);
