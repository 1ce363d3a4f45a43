/**
 * The runtime suite on Node 24 (src/test-support/runtime-suite.ts): the server fixture served
 * by Node 24, checked by mcpkit's client in both eras and the official SDK client, and mcpkit's
 * client run on Node 24. One file per runtime so the runtimes run in parallel.
 */
import { runtimeTests } from '../test-support/runtime-suite.js';

await runtimeTests('node24');
