import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { missing } from '../test-support/services.js';
import { delay } from '../test-support/waiting.js';

// The interactive shell through a real pseudo-terminal: tmux runs it, send-keys types,
// capture-pane reads the screen (which trims trailing spaces). CI installs tmux (.ci/run).
const main = fileURLToPath(new URL('./main.js', import.meta.url));
const server = fileURLToPath(new URL('../demo/everything-stdio.js', import.meta.url));
const session = `mcpkit-shell-${process.pid}`;

const tmux = (...args: string[]): string => execFileSync('tmux', args, { encoding: 'utf8' });

async function screenUntil(pattern: RegExp, timeoutMs = 8000): Promise<string> {
  const end = Date.now() + timeoutMs;
  let screen = '';
  while (Date.now() < end) {
    screen = tmux('capture-pane', '-t', session, '-p', '-S', '-200');
    if (pattern.test(screen)) return screen;
    // The poll interval of a condition wait: tmux has no change event to wait on.
    await delay(100);
  }
  assert.fail(`Timed out waiting for ${pattern} on screen:\n${screen}`);
}

test(
  'mcpkit shell: tab completion, calls, elicitation answered at the prompt, history, exit',
  { skip: missing('tmux') },
  async () => {
    const command = [process.execPath, main, 'shell', '--', process.execPath, server]
      .map((a) => `'${a}'`)
      .join(' ');
    tmux(
      'new-session',
      '-d',
      '-s',
      session,
      '-x',
      '140',
      '-y',
      '50',
      `NO_COLOR=1 ${command}; echo SHELL-EXITED-$?; sleep 30`,
    );
    try {
      await screenUntil(/mcp>\s*$/m);
      // Tab completes the tool name, then an argument key.
      tmux('send-keys', '-t', session, 'call ad', 'Tab');
      await screenUntil(/mcp> call add\s*$/m);
      tmux('send-keys', '-t', session, ' a', 'Tab');
      await screenUntil(/mcp> call add a=$/m);
      tmux('send-keys', '-t', session, '2 b=5', 'Enter');
      await screenUntil(/call add a=2 b=5\n7\n/);
      // The server asks the user something; the answers are typed at the prompt.
      tmux('send-keys', '-t', session, 'call test_elicitation message=who', 'Enter');
      await screenUntil(/username[^\n]*:\s*$/m);
      tmux('send-keys', '-t', session, 'ada', 'Enter');
      await screenUntil(/email[^\n]*:\s*$/m);
      tmux('send-keys', '-t', session, 'ada@example.org', 'Enter');
      await screenUntil(/Send these answers\? \[Y\/n\]\s*$/m);
      tmux('send-keys', '-t', session, 'y', 'Enter');
      await screenUntil(/content=\{"username":"ada","email":"ada@example.org"\}/);
      // History: Up recalls the last line.
      tmux('send-keys', '-t', session, 'Up');
      await screenUntil(/mcp> call test_elicitation message=who$/m);
      tmux('send-keys', '-t', session, 'C-u', 'exit', 'Enter');
      await screenUntil(/SHELL-EXITED-0/);
    } finally {
      try {
        tmux('kill-session', '-t', session);
      } catch {
        // already gone
      }
    }
  },
);
