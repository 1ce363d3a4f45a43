/**
 * The runtime suite on Node 20 (src/test-support/runtime-suite.ts): the server fixture served
 * by Node 20, checked by mcpkit's client in both eras and the official SDK client, and mcpkit's
 * client run on Node 20. One file per runtime so the runtimes run in parallel.
 */
import { runtimeTests } from '../test-support/runtime-suite.js';

await runtimeTests('node20');
