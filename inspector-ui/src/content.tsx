// Results by content type: text (plain, JSON or markdown), images, audio, embedded
// resources, resource links, and structured content next to the tool's output schema.
import { useState } from 'preact/hooks';
import type { ComponentChild } from 'preact';
import { Markdown } from './markdown';

type Item = Record<string, unknown> & { type?: string };

function looksLikeMarkdown(t: string): boolean {
  return /(^|\n)(#{1,6}\s|```|[-*]\s|\d+\.\s)|\*\*[^*]+\*\*|\[[^\]]+\]\(https?:/.test(t);
}

export function Json({ value }: { value: unknown }) {
  return <pre class="json-view">{JSON.stringify(value, null, 2)}</pre>;
}

function Text({ text, mime }: { text: string; mime?: string }) {
  const isMd = mime === 'text/markdown' || looksLikeMarkdown(text);
  let json: unknown;
  if (!isMd && /^\s*[[{]/.test(text)) {
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
  }
  const [mode, setMode] = useState<'rendered' | 'raw'>('rendered');
  if (json !== undefined) return <Json value={json} />;
  if (!isMd) return <pre class="text">{text}</pre>;
  return (
    <div class="md-box">
      <div class="toggle">
        <button class={mode === 'rendered' ? 'on small' : 'small'} onClick={() => setMode('rendered')}>
          Markdown
        </button>
        <button class={mode === 'raw' ? 'on small' : 'small'} onClick={() => setMode('raw')}>
          Raw
        </button>
      </div>
      {mode === 'rendered' ? <Markdown text={text} /> : <pre class="text">{text}</pre>}
    </div>
  );
}

function dataUrl(mime: unknown, data: unknown): string {
  return `data:${typeof mime === 'string' ? mime : 'application/octet-stream'};base64,${String(data ?? '')}`;
}

/** A resource's contents (from `resources/read` or an embedded resource). */
export function ResourceContents({ c }: { c: Record<string, unknown> }) {
  const mime = typeof c.mimeType === 'string' ? c.mimeType : undefined;
  let body: ComponentChild;
  if (typeof c.text === 'string') body = <Text text={c.text} mime={mime} />;
  else if (typeof c.blob === 'string') {
    if (mime?.startsWith('image/'))
      body = <img class="media" src={dataUrl(mime, c.blob)} alt={String(c.uri)} />;
    else if (mime?.startsWith('audio/')) body = <audio controls src={dataUrl(mime, c.blob)} />;
    else
      body = (
        <a download={String(c.uri).split('/').pop() || 'resource'} href={dataUrl(mime, c.blob)}>
          Download ({Math.round((c.blob.length * 3) / 4)} bytes{mime ? `, ${mime}` : ''})
        </a>
      );
  }
  return (
    <div class="resource-box">
      <div class="resource-head">
        <code>{String(c.uri)}</code>
        {mime && <span class="tag">{mime}</span>}
      </div>
      {body}
    </div>
  );
}

export function ContentItem({ item, onOpenLink }: { item: Item; onOpenLink?: (uri: string) => void }) {
  switch (item.type) {
    case 'text':
      return <Text text={String(item.text ?? '')} />;
    case 'image':
      return (
        <img class="media" data-kind="image" src={dataUrl(item.mimeType, item.data)} alt="image result" />
      );
    case 'audio':
      return <audio controls data-kind="audio" src={dataUrl(item.mimeType, item.data)} />;
    case 'resource':
      return <ResourceContents c={(item.resource ?? {}) as Record<string, unknown>} />;
    case 'resource_link':
      return (
        <div class="resource-box link" data-kind="resource_link">
          <div class="resource-head">
            <span class="tag">link</span> <strong>{String(item.title ?? item.name ?? '')}</strong>{' '}
            <code>{String(item.uri)}</code>
            {typeof item.mimeType === 'string' && <span class="tag">{item.mimeType}</span>}
          </div>
          {typeof item.description === 'string' && <p class="muted">{item.description}</p>}
          {onOpenLink && (
            <button class="small" onClick={() => onOpenLink(String(item.uri))}>
              Read
            </button>
          )}
        </div>
      );
    default:
      return <Json value={item} />;
  }
}

export function Contents({ items, onOpenLink }: { items: Item[]; onOpenLink?: (uri: string) => void }) {
  return (
    <div class="contents">
      {items.map((item) => (
        <div class="content-item" data-type={String(item.type)}>
          <ContentItem item={item} {...(onOpenLink ? { onOpenLink } : {})} />
        </div>
      ))}
    </div>
  );
}

/** A tool's result: error banner, content blocks, structured content beside its schema. */
export function ToolResult({
  result,
  outputSchema,
  onOpenLink,
}: {
  result: Record<string, unknown>;
  outputSchema?: unknown;
  onOpenLink?: (uri: string) => void;
}) {
  const [raw, setRaw] = useState(false);
  const content = (Array.isArray(result.content) ? result.content : []) as Item[];
  return (
    <div class={result.isError ? 'result error' : 'result'} data-testid="tool-result">
      <div class="toggle">
        {result.isError === true && <span class="tag bad">the tool reported an error</span>}
        <button class={raw ? 'on small' : 'small'} onClick={() => setRaw(!raw)}>
          JSON
        </button>
      </div>
      {raw ? (
        <Json value={result} />
      ) : (
        <>
          <Contents items={content} {...(onOpenLink ? { onOpenLink } : {})} />
          {result.structuredContent !== undefined && (
            <div class="structured">
              <div>
                <h4>Structured content</h4>
                <Json value={result.structuredContent} />
              </div>
              <div>
                <h4>Output schema</h4>
                {outputSchema ? <Json value={outputSchema} /> : <p class="muted">The tool declares none.</p>}
              </div>
            </div>
          )}
        </>
      )}
    </div>
  );
}
