// docs/cli.md against the CLI's own help: every command has a section, and every option a
// command's --help names appears in the page.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const main = fileURLToPath(new URL('./main.js', import.meta.url));
const page = readFileSync(fileURLToPath(new URL('../../docs/cli.md', import.meta.url)), 'utf8');

function help(...args: string[]): string {
  const r = spawnSync(process.execPath, [main, ...args], { encoding: 'utf8', timeout: 30_000 });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
}

/** The commands `mcpkit --help` lists. */
const commands = [...help('--help').matchAll(/^ {2}([a-z][a-z-]*) {2,}/gm)].map((m) => m[1]!);

/** The long options a help text names, leaving out its example command lines. */
function optionsIn(text: string): string[] {
  const prose = text
    .split('\n')
    .filter((line) => !/^\s+(mcpkit|npm|npx|node) /.test(line))
    .join('\n');
  return [...new Set([...prose.matchAll(/(?<![\w-])--([a-z][a-z-]*)/g)].map((m) => `--${m[1]}`))];
}

test('docs/cli.md has a section for every command and names every option of its --help', () => {
  assert.ok(commands.length >= 17, commands.join());
  const headings = page.split('\n').filter((l) => l.startsWith('## '));
  const missing: string[] = [];
  for (const command of commands) {
    if (!headings.some((h) => h.includes(`\`${command}`) || h.includes(`${command}\``)))
      missing.push(`${command}: no section`);
    for (const option of optionsIn(help(command, '--help')))
      if (option !== '--help' && !page.includes(`\`${option}`) && !page.includes(` ${option}`))
        missing.push(`${command}: ${option}`);
  }
  assert.deepEqual(missing, []);
});
