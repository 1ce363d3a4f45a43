/** Plain-text rendering of sampling conversations for the terminal (server text made safe). */
import type { SamplingMessage, SamplingMessageContentBlock } from '../../protocol/types/index.js';
import { blocksOf } from '../llm/llm.js';
import { displaySafe } from '../policy/tool-inspection.js';

/** One content block on one line (or a few). */
export function renderBlock(block: SamplingMessageContentBlock): string {
  switch (block.type) {
    case 'text':
      return displaySafe(block.text, 2000);
    case 'image':
    case 'audio':
      return `[${block.type} ${displaySafe(block.mimeType)}, ${Math.round((block.data.length * 3) / 4)} bytes]`;
    case 'tool_use':
      return `[calls ${displaySafe(block.name)} ${displaySafe(JSON.stringify(block.input), 600)}]`;
    case 'tool_result': {
      const text = block.content.map((c) => (c.type === 'text' ? c.text : `[${c.type}]`)).join(' ');
      return `[result of ${displaySafe(block.toolUseId)}${block.isError ? ' (error)' : ''}: ${displaySafe(text, 600)}]`;
    }
  }
}

/** A conversation, one `role: text` line per message, indented. */
export function renderMessages(messages: readonly SamplingMessage[]): string {
  return messages.map((m) => `  ${m.role}: ${blocksOf(m.content).map(renderBlock).join(' ')}`).join('\n');
}
