/**
 * Runs the embedding example (examples/host/embed.ts) as a user would, scripted: it is
 * transpiled with TypeScript into the package (so `mcpkit/host` resolves to dist/ through
 * the package's own exports), run with Node, and its transcript checked. The transcript is
 * also written to .cache/host-transcript.txt.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const root = fileURLToPath(new URL('../../', import.meta.url));
const source = `${root}examples/host/embed.ts`;
const outDir = `${root}.cache/examples-host`;

test('the embedding example drives four servers at once, end to end', async () => {
  const ts = (await import('typescript')).default;
  const js = ts.transpileModule(readFileSync(source, 'utf8'), {
    compilerOptions: {
      module: ts.ModuleKind.ESNext,
      target: ts.ScriptTarget.ES2022,
      verbatimModuleSyntax: true,
    },
    fileName: 'embed.ts',
  }).outputText;
  mkdirSync(outDir, { recursive: true });
  writeFileSync(`${outDir}/embed.mjs`, js);
  const { stdout } = await promisify(execFile)(process.execPath, [`${outDir}/embed.mjs`, '--scripted'], {
    cwd: root,
    timeout: 30_000,
    env: { ...process.env, MCPKIT_DEMO_STEP_MS: '5' },
  });
  writeFileSync(`${root}.cache/host-transcript.txt`, stdout);
  const lines = stdout.split('\n');
  const has = (re: RegExp): void =>
    assert.ok(
      lines.some((l) => re.test(l)),
      `no line matches ${re}\n${stdout}`,
    );
  for (const s of ['demo', 'everything', 'files', 'notes']) has(new RegExp(`^\\[health\\] ${s}: ready$`));
  has(/^\[consent\] start "files": .*server-filesystem\/dist\/index\.js \/.*mcpkit-host-example-.* → yes$/);
  has(/^\[catalog\] \d+ tools: demo \d+, everything \d+, files \d+, notes 1;/);
  has(/^\[tool\] files__read_text_file → ok: water the plants \| file the tax return/);
  has(/^\[tool\] everything__get-sum → ok: The sum of 2 and 3 is 5\.$/);
  has(/^\[approve\] agent → notes\/add_note \{"text":"water the plants"\} \(policy\) → once$/);
  has(/^\[tool\] notes__add_note → ok: Saved note #1$/);
  has(
    /^\[tool\] files__write_file → refused\/failed: The host refused: The policy denies "write_file" on "files" \(tool-rule\)$/,
  );
  has(/^\[answer\] Your list says to water the plants/);
  has(/^\[sampling\] the server got: LLM response: Hello from the host model!$/);
  has(/^\[gateway\] http:\/\/127\.0\.0\.1:\d+\/mcp serves \d+ tools; demo__echo → through the gateway$/);
  has(/^ {2}tool agent → files\/write_file: denied, not-run$/);
  has(/^ {2}sampling server:demo → demo\/scripted-model: approved, ok \d+ms$/);
  has(/^\[done\] every server stopped: demo stopped, everything stopped, files stopped, notes stopped$/);
});
