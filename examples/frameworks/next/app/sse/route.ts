// The deprecated HTTP+SSE transport (2024-11-05), for older clients: the event stream.
import { mcp } from '../../lib/mcp.ts';

export const { GET } = mcp;
export const dynamic = 'force-dynamic';
