// The docs checker (scripts/check-tsdoc-examples.mjs) takes a page's ```ts block as pasted:
// nothing is imported or declared for it, and a block that is not a whole program must say
// which one it belongs to (`// fragment of NAME`), to which it is joined.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));
const dir = mkdtempSync(join(root, 'dist', 'doc-blocks-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Checks one page made of these blocks: the exit code and the messages. */
function check(name: string, ...blocks: string[]): { status: number | null; output: string } {
  const page = join(dir, `${name}.md`);
  writeFileSync(page, `# ${name}\n\n${blocks.map((b) => `\`\`\`ts\n${b}\n\`\`\`\n`).join('\n')}`);
  const r = spawnSync(process.execPath, ['scripts/check-tsdoc-examples.mjs', '--pages', page], {
    cwd: root,
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { status: r.status, output: r.stdout + r.stderr };
}

const SERVER = [
  '// server.ts',
  "import { McpServer } from 'mcpkit';",
  "const server = new McpServer({ name: 'weather', version: '1.0.0' });",
].join('\n');

describe('page blocks are checked as pasted', () => {
  test('a whole program, and a fragment joined to the program it names, pass', () => {
    const r = check(
      'good',
      SERVER,
      "// fragment of server.ts\nimport { serve } from 'mcpkit/http-server';\nawait serve(server, { port: 0 });",
    );
    assert.equal(r.status, 0, r.output);
    assert.match(
      r.output,
      /0 TSDoc examples, 2 page blocks \(as pasted\) and 0 host configs in 1 files, 0 errors\./,
    );
  });

  test('a block without its import, one using an object it does not make, an orphan fragment and a wrong fragment fail', () => {
    const r = check(
      'bad',
      // line 4: nothing is imported for it
      "const server = new McpServer({ name: 'weather', version: '1.0.0' });",
      // line 9: the TSDoc prelude's `server` is not given to pages
      "import { serve } from 'mcpkit/http-server';\nawait serve(server, { port: 0 });",
      // line 13: names a program that is neither on the page nor in the repository
      "// fragment of client.ts\nconsole.log('hi');",
      // lines 18-20, then a fragment whose error is on its second line (page line 25)
      SERVER,
      "// fragment of server.ts\nserver.tool({ name: 1 }, () => 'x');",
    );
    assert.equal(r.status, 1, r.output);
    assert.match(r.output, /bad\.md:4: Cannot find name 'McpServer'\./);
    assert.match(r.output, /bad\.md:9: Cannot find name 'server'/);
    assert.match(r.output, /bad\.md:13: a fragment of client\.ts, which neither a block of the page/);
    assert.match(r.output, /bad\.md:25: Type 'number' is not assignable to type 'string'/);
    assert.match(r.output, /, 4 errors\.\n$/);
  });
});
