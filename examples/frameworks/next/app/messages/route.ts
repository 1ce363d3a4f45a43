// The deprecated HTTP+SSE transport (2024-11-05), for older clients: its messages.
import { mcp } from '../../lib/mcp.ts';

export const { POST } = mcp;
export const dynamic = 'force-dynamic';
