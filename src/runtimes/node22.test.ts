/**
 * The runtime suite on Node 22 (src/test-support/runtime-suite.ts): the server fixture served
 * by Node 22, checked by mcpkit's client in both eras and the official SDK client, and mcpkit's
 * client run on Node 22. One file per runtime so the runtimes run in parallel.
 */
import { runtimeTests } from '../test-support/runtime-suite.js';

await runtimeTests('node22');
