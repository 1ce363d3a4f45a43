/** Prints MCP content blocks for a person: text as is, media and resources summarized. */
export function printContent(blocks: ReadonlyArray<Record<string, unknown>>, structured?: unknown): void {
  for (const b of blocks) {
    switch (b.type) {
      case 'text':
        console.log(String(b.text));
        break;
      case 'image':
      case 'audio':
        console.log(
          `[${String(b.type)} ${String(b.mimeType)}, ${Math.floor((String(b.data ?? '').length * 3) / 4)} bytes]`,
        );
        break;
      case 'resource_link':
        console.log(`[link ${String(b.uri)}${b.name ? ` "${String(b.name)}"` : ''}]`);
        break;
      case 'resource': {
        const r = (b.resource ?? {}) as Record<string, unknown>;
        console.log(
          r.text !== undefined
            ? `[resource ${String(r.uri)}]\n${String(r.text)}`
            : `[resource ${String(r.uri)}, binary]`,
        );
        break;
      }
      default:
        console.log(JSON.stringify(b));
    }
  }
  if (structured !== undefined && blocks.length === 0) console.log(JSON.stringify(structured, null, 2));
}
