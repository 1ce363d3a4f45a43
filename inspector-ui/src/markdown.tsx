// A small markdown renderer that builds elements, never HTML strings: a server's text
// cannot inject markup into the page. Headings, paragraphs, lists, quotes, fenced code,
// inline code, emphasis and http(s) links.
import type { ComponentChild } from 'preact';

function inline(text: string): ComponentChild[] {
  const out: ComponentChild[] = [];
  const re = /(`[^`]+`)|(\*\*[^*]+\*\*)|(\*[^*]+\*|_[^_]+_)|(\[([^\]]+)\]\(([^)\s]+)\))/g;
  let last = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (m.index > last) out.push(text.slice(last, m.index));
    if (m[1]) out.push(<code>{m[1].slice(1, -1)}</code>);
    else if (m[2]) out.push(<strong>{inline(m[2].slice(2, -2))}</strong>);
    else if (m[3]) out.push(<em>{inline(m[3].slice(1, -1))}</em>);
    else if (m[4]) {
      const href = m[6]!;
      out.push(
        /^https?:\/\//i.test(href) ? (
          <a href={href} target="_blank" rel="noopener noreferrer">
            {m[5]}
          </a>
        ) : (
          m[5]
        ),
      );
    }
    last = re.lastIndex;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

export function Markdown({ text }: { text: string }) {
  const lines = text.split('\n');
  const blocks: ComponentChild[] = [];
  for (let i = 0; i < lines.length;) {
    const line = lines[i]!;
    if (line.startsWith('```')) {
      const code: string[] = [];
      for (i++; i < lines.length && !lines[i]!.startsWith('```'); i++) code.push(lines[i]!);
      i++;
      blocks.push(<pre class="code">{code.join('\n')}</pre>);
      continue;
    }
    const h = /^(#{1,6})\s+(.*)$/.exec(line);
    if (h) {
      const Tag = `h${Math.min(6, h[1]!.length + 2)}` as 'h3';
      blocks.push(<Tag>{inline(h[2]!)}</Tag>);
      i++;
      continue;
    }
    if (/^\s*([-*+]|\d+\.)\s+/.test(line)) {
      const ordered = /^\s*\d+\./.test(line);
      const items: ComponentChild[] = [];
      for (; i < lines.length && /^\s*([-*+]|\d+\.)\s+/.test(lines[i]!); i++)
        items.push(<li>{inline(lines[i]!.replace(/^\s*([-*+]|\d+\.)\s+/, ''))}</li>);
      blocks.push(ordered ? <ol>{items}</ol> : <ul>{items}</ul>);
      continue;
    }
    if (line.startsWith('>')) {
      const quote: string[] = [];
      for (; i < lines.length && lines[i]!.startsWith('>'); i++) quote.push(lines[i]!.replace(/^>\s?/, ''));
      blocks.push(<blockquote>{inline(quote.join(' '))}</blockquote>);
      continue;
    }
    if (line.trim() === '') {
      i++;
      continue;
    }
    const para: string[] = [];
    for (
      ;
      i < lines.length && lines[i]!.trim() !== '' && !/^(#|```|>|\s*([-*+]|\d+\.)\s)/.test(lines[i]!);
      i++
    )
      para.push(lines[i]!);
    if (para.length === 0) para.push(lines[i++]!);
    blocks.push(<p>{inline(para.join(' '))}</p>);
  }
  return <div class="markdown">{blocks}</div>;
}
