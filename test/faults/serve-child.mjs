// One mcpkit HTTP server process for the restart fault: serves the demo server on the port
// given (0 for any) and sends its port to the parent once it listens.
import { createEverythingServer } from '../../dist/demo/everything-server.js';
import { serve } from '../../dist/serve/index.js';

const running = await serve(createEverythingServer(), { port: Number(process.argv[2] ?? 0) });
process.send?.({ port: running.port });
