// Where an MCP App view renders, beside its tool's result. The host side of the Apps
// extension (the bridge and its sandbox) is being built separately; until it is merged
// this slot says which view the tool declares.
import type { CallRecord, Tool } from './store';

export function AppSlot({
  server,
  tool,
  uri,
}: {
  server: string;
  tool: Tool;
  uri: string;
  call: CallRecord;
}) {
  return (
    <div class="app-slot" data-testid="app-slot" data-server={server} data-tool={tool.name} data-uri={uri}>
      <div class="resource-head">
        <span class="tag app">MCP App</span> <code>{uri}</code>
      </div>
      <p class="muted">This tool has an app view; rendering it needs the apps bridge.</p>
    </div>
  );
}
