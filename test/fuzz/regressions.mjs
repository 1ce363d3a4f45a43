// Inputs that once broke (or could break) a parser, checked on every run. Each entry names
// what it guards against.
import assert from 'node:assert/strict';
import { InvalidMessage, parseFrame } from '../../dist/jsonrpc/index.js';
import { parseWwwAuthenticate } from '../../dist/auth/client/www-authenticate.js';

export const regressions = [
  {
    name: 'deep JSON (100,000 levels) is an error answer, not a crash',
    check: () => {
      const deep = '['.repeat(100_000) + ']'.repeat(100_000);
      const f = parseFrame(deep);
      assert.ok(f instanceof InvalidMessage || Array.isArray(f) || typeof f === 'object');
    },
  },
  {
    name: 'a huge string field in an otherwise valid request parses in linear time',
    check: () => {
      const big = JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'x'.repeat(8 << 20) },
      });
      const t = performance.now();
      parseFrame(big);
      assert.ok(performance.now() - t < 2000);
    },
  },
  {
    name: 'WWW-Authenticate with 10,000 commas and quotes stays fast',
    check: () => {
      const t = performance.now();
      parseWwwAuthenticate('Bearer ' + ',"\\'.repeat(10_000));
      assert.ok(performance.now() - t < 1000);
    },
  },
];
