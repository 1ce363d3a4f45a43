import { registerSkills } from '../server/index.js';
import type { McpServer } from '../server/server.js';

/**
 * A skill (SEP-2640) that teaches an agent to use this demo server: `skill://demo/tour`,
 * with a reference page and a report template in a subdirectory. Clients list it with
 * `skills/list`, fetch files with `resources/read` and browse with `resources/directory/read`.
 */
export function registerEverythingSkills(server: McpServer): void {
  registerSkills(server, [
    {
      path: 'demo/tour',
      frontmatter: {
        name: 'tour',
        description: 'Walk a user through what the mcpkit demo server can do, one feature at a time',
        license: 'MIT',
        metadata: { audience: 'new users' },
      },
      instructions: [
        '# Touring the demo server',
        '',
        '1. Call `add` with two numbers to show structured output.',
        '2. Call `slow_count` with `n: 5` to show progress; cancel it half way.',
        '3. Call `plan_trip` to show the server asking the user and the model.',
        '',
        'See [the tool reference](references/tools.md) and fill in',
        '[the report template](templates/report.md) at the end.',
        '',
      ].join('\n'),
      files: {
        'references/tools.md':
          '# Tools\n\n- `add`: sums two numbers.\n- `slow_count`: counts with progress.\n- `plan_trip`: asks questions.\n',
        'templates/report.md': '# Tour report\n\n- Features shown:\n- Questions asked:\n',
      },
    },
  ]);
}
