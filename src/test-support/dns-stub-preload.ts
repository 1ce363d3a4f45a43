/**
 * `node --import dist/test-support/dns-stub-preload.js ...`: the child's system resolver
 * answers from the JSON table in `MCPKIT_TEST_DNS` (see dns-stub.ts), so a CLI run as users
 * run it meets names that resolve where the test says.
 */
import { stubSystemDns } from './dns-stub.js';
import type { DnsTable } from './dns-stub.js';

const table = process.env.MCPKIT_TEST_DNS;
if (table !== undefined) stubSystemDns(JSON.parse(table) as DnsTable);
