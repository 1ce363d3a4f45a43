// The MCP endpoint: Streamable HTTP, both eras.
import { mcp } from '../../lib/mcp.ts';

export const { GET, POST, DELETE } = mcp;
// Never prerendered or cached: every request reaches the handler.
export const dynamic = 'force-dynamic';
