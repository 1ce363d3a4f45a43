// Results by content type: text (plain, JSON or markdown), images, audio, embedded
// resources, resource links, and structured content next to the tool's output schema.
import { useState } from 'preact/hooks';
import type { ComponentChild } from 'preact';
import { Markdown } from './markdown';
import { splitFrontMatter } from './front-matter';
import type { FrontMatter } from './front-matter';

type Item = Record<string, unknown> & { type?: string };

function looksLikeMarkdown(t: string): boolean {
  return /(^|\n)(#{1,6}\s|```|[-*]\s|\d+\.\s)|\*\*[^*]+\*\*|\[[^\]]+\]\(https?:/.test(t);
}

/**
 * Text longer than this is shown cut, with the way to see it whole: laying out megabytes in
 * one element (and scanning them for markdown or JSON) kept the page busy for seconds (21 s
 * for 5 MB without a space on the test machine; layout time grows with the length).
 */
export const SHOWN_CHARS = 20_000;
/** Past this, "whole" is a file to save: drawn in the page it would freeze it again. */
const DRAWN_WHOLE_CHARS = 1_000_000;

/** Saves text as a file (the wire export does the same). */
function save(text: string, name: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** A long text cut at {@link SHOWN_CHARS}, with the way to see it whole. */
function Long({ text, class: cls }: { text: string; class: string }) {
  const [whole, setWhole] = useState(false);
  if (whole || text.length <= SHOWN_CHARS) return <pre class={cls}>{text}</pre>;
  return (
    <div class="long" data-testid="truncated">
      <pre class={cls}>{text.slice(0, SHOWN_CHARS)}</pre>
      <div class="buttons">
        <span class="muted">
          Showing {SHOWN_CHARS.toLocaleString()} of {text.length.toLocaleString()} characters.
        </span>
        {text.length <= DRAWN_WHOLE_CHARS && (
          <button class="small" data-testid="show-whole" onClick={() => setWhole(true)}>
            Show all
          </button>
        )}
        <button
          class="small"
          data-testid="save-whole"
          onClick={() => save(text, cls === 'json-view' ? 'content.json' : 'content.txt')}
        >
          Save all as a file
        </button>
      </div>
    </div>
  );
}

export function Json({ value }: { value: unknown }) {
  return <Long class="json-view" text={JSON.stringify(value, null, 2) ?? String(value)} />;
}

/** Front matter as a table of its fields, or the block as written when it is beyond the simple subset. */
function FrontMatterView({ fm }: { fm: FrontMatter }) {
  if (!fm.fields)
    return <pre class="code front-matter" data-testid="front-matter">{`---\n${fm.raw}\n---`}</pre>;
  return (
    <table class="front-matter" data-testid="front-matter">
      <tbody>
        {fm.fields.map(([k, v]) => (
          <tr>
            <th scope="row">{k}</th>
            <td>{Array.isArray(v) ? v.join(', ') : v}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Text({ text, mime }: { text: string; mime?: string }) {
  if (text.length > SHOWN_CHARS) return <Long class="text" text={text} />;
  const fm = splitFrontMatter(text);
  const isMd = mime === 'text/markdown' || fm !== undefined || looksLikeMarkdown(text);
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
      {mode === 'rendered' ? (
        <>
          {fm && <FrontMatterView fm={fm} />}
          <Markdown text={fm ? fm.body : text} />
        </>
      ) : (
        <pre class="text">{text}</pre>
      )}
    </div>
  );
}

function dataUrl(mime: unknown, data: unknown): string {
  return `data:${typeof mime === 'string' ? mime : 'application/octet-stream'};base64,${String(data ?? '')}`;
}

/** The number of bytes base64 text decodes to (padding and whitespace not counted). */
export function decodedSize(b64: string): number {
  const clean = b64.replace(/[\s=]/g, '');
  return Math.floor((clean.length * 3) / 4);
}

function bytes(n: number): string {
  if (n < 1024) return `${n} bytes`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB (${n} bytes)`;
  return `${(n / 1024 / 1024).toFixed(1)} MiB (${n} bytes)`;
}

const EXT: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/svg+xml': 'svg',
  'audio/wav': 'wav',
  'audio/x-wav': 'wav',
  'audio/mpeg': 'mp3',
  'audio/ogg': 'ogg',
  'application/pdf': 'pdf',
  'application/json': 'json',
};

/**
 * Binary data as what it is: its type, its decoded size, a link to save it, and the image
 * at its own size (never stretched to the column) or the audio player above.
 */
function Binary({ mime, data, name }: { mime: string | undefined; data: unknown; name: string }) {
  const b64 = typeof data === 'string' ? data : '';
  const type = mime ?? 'application/octet-stream';
  const size = decodedSize(b64);
  const [dims, setDims] = useState<string | undefined>(undefined);
  const file = /\.[\w]+$/.test(name) ? name : `${name}.${EXT[type] ?? 'bin'}`;
  return (
    <div class="binary" data-testid="binary" data-mime={type} data-bytes={size}>
      {type.startsWith('image/') && (
        <img
          class="media"
          data-kind="image"
          src={dataUrl(type, b64)}
          alt={name}
          onLoad={(e) => {
            const img = e.target as HTMLImageElement;
            // A tiny image (an icon, a pixel) stays sharp if the reader zooms in.
            if (img.naturalWidth <= 64 && img.naturalHeight <= 64) img.classList.add('tiny');
            setDims(`${img.naturalWidth}×${img.naturalHeight}`);
          }}
        />
      )}
      {type.startsWith('audio/') && <audio controls data-kind="audio" src={dataUrl(type, b64)} />}
      <div class="binary-meta">
        <span class="tag" data-testid="binary-type">
          {type}
        </span>{' '}
        <span data-testid="binary-size">{bytes(size)}</span>
        {dims && <span class="muted"> · {dims} px</span>}{' '}
        <a download={file} href={dataUrl(type, b64)} data-testid="binary-download">
          Download
        </a>
      </div>
    </div>
  );
}

/** A resource's contents (from `resources/read` or an embedded resource). */
export function ResourceContents({ c }: { c: Record<string, unknown> }) {
  const mime = typeof c.mimeType === 'string' ? c.mimeType : undefined;
  let body: ComponentChild;
  if (typeof c.text === 'string') body = <Text text={c.text} {...(mime ? { mime } : {})} />;
  else if (typeof c.blob === 'string')
    body = <Binary mime={mime} data={c.blob} name={String(c.uri).split(/[/:]/).pop() || 'resource'} />;
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
    case 'audio':
      return (
        <Binary
          mime={typeof item.mimeType === 'string' ? item.mimeType : undefined}
          data={item.data}
          name={`${item.type}-result`}
        />
      );
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
