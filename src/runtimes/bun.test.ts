/**
 * The runtime suite on Bun (src/test-support/runtime-suite.ts): the server fixture served
 * by Bun, checked by mcpkit's client in both eras and the official SDK client, and mcpkit's
 * client run on Bun. One file per runtime so the runtimes run in parallel.
 */
import { runtimeTests } from '../test-support/runtime-suite.js';

await runtimeTests('bun');
