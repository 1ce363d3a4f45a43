/**
 * Test-only: screenshots that are checked, not just taken. A small PNG decoder (8-bit
 * greyscale, RGB and RGBA, not interlaced: what Chromium writes) over node:zlib, and the
 * checks a screenshot test makes from the pixels: the size, that it is not blank, and the
 * contrast inside an element's box (WCAG 2 relative luminance). Not part of the public API.
 */
import { inflateSync } from 'node:zlib';

/** A decoded image: RGBA, 4 bytes a pixel, row by row. */
export interface Png {
  width: number;
  height: number;
  rgba: Uint8Array;
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Decodes a PNG; throws on what it does not support (palette, 16-bit, interlaced). */
export function decodePng(file: Uint8Array): Png {
  const buf = Buffer.from(file.buffer, file.byteOffset, file.byteLength);
  if (buf.length < 8 || !buf.subarray(0, 8).equals(SIGNATURE)) throw new Error('not a PNG');
  let width = 0;
  let height = 0;
  let channels = 0;
  const idat: Buffer[] = [];
  for (let at = 8; at + 8 <= buf.length;) {
    const length = buf.readUInt32BE(at);
    const type = buf.toString('latin1', at + 4, at + 8);
    const data = buf.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      const depth = data[8];
      const colour = data[9];
      if (depth !== 8) throw new Error(`unsupported bit depth ${depth}`);
      if (data[12] !== 0) throw new Error('interlaced PNGs are not supported');
      channels = ({ 0: 1, 2: 3, 4: 2, 6: 4 } as Record<number, number>)[colour!] ?? 0;
      if (channels === 0) throw new Error(`unsupported colour type ${colour}`);
    } else if (type === 'IDAT') idat.push(data);
    else if (type === 'IEND') break;
    at += 12 + length;
  }
  if (width === 0 || height === 0) throw new Error('no IHDR');
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  if (raw.length < height * (stride + 1)) throw new Error('truncated image data');
  const px = new Uint8Array(height * stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const src = y * (stride + 1) + 1;
    const row = y * stride;
    for (let i = 0; i < stride; i++) {
      const x = raw[src + i]!;
      const a = i >= channels ? px[row + i - channels]! : 0;
      const b = y > 0 ? px[row - stride + i]! : 0;
      const c = y > 0 && i >= channels ? px[row - stride + i - channels]! : 0;
      let v: number;
      switch (filter) {
        case 0:
          v = x;
          break;
        case 1:
          v = x + a;
          break;
        case 2:
          v = x + b;
          break;
        case 3:
          v = x + ((a + b) >> 1);
          break;
        case 4: {
          const p = a + b - c;
          const pa = Math.abs(p - a);
          const pb = Math.abs(p - b);
          const pc = Math.abs(p - c);
          v = x + (pa <= pb && pa <= pc ? a : pb <= pc ? b : c);
          break;
        }
        default:
          throw new Error(`bad filter ${filter} on row ${y}`);
      }
      px[row + i] = v & 0xff;
    }
  }
  const rgba = new Uint8Array(width * height * 4);
  for (let p = 0, q = 0; p < px.length; p += channels, q += 4) {
    if (channels <= 2) {
      rgba[q] = rgba[q + 1] = rgba[q + 2] = px[p]!;
      rgba[q + 3] = channels === 2 ? px[p + 1]! : 255;
    } else {
      rgba[q] = px[p]!;
      rgba[q + 1] = px[p + 1]!;
      rgba[q + 2] = px[p + 2]!;
      rgba[q + 3] = channels === 4 ? px[p + 3]! : 255;
    }
  }
  return { width, height, rgba };
}

/** A rectangle in image pixels. */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The colours of a region (alpha ignored: screenshots are opaque), most frequent first. */
export function colours(png: Png, box?: Box): Array<{ rgb: number; count: number }> {
  const x0 = Math.max(0, Math.floor(box?.x ?? 0));
  const y0 = Math.max(0, Math.floor(box?.y ?? 0));
  const x1 = Math.min(png.width, Math.ceil(box ? box.x + box.width : png.width));
  const y1 = Math.min(png.height, Math.ceil(box ? box.y + box.height : png.height));
  const counts = new Map<number, number>();
  for (let y = y0; y < y1; y++)
    for (let x = x0; x < x1; x++) {
      const i = (y * png.width + x) * 4;
      const rgb = (png.rgba[i]! << 16) | (png.rgba[i + 1]! << 8) | png.rgba[i + 2]!;
      counts.set(rgb, (counts.get(rgb) ?? 0) + 1);
    }
  return [...counts].map(([rgb, count]) => ({ rgb, count })).sort((a, b) => b.count - a.count);
}

/** WCAG 2 relative luminance of a 0xRRGGBB colour. */
export function luminance(rgb: number): number {
  const lin = (c: number): number => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin((rgb >> 16) & 0xff) + 0.7152 * lin((rgb >> 8) & 0xff) + 0.0722 * lin(rgb & 0xff);
}

/** WCAG 2 contrast ratio of two 0xRRGGBB colours (1 to 21). */
export function contrastRatio(a: number, b: number): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

export const hex = (rgb: number): string => `#${rgb.toString(16).padStart(6, '0')}`;

/**
 * The contrast of what is drawn in a region against its background: the background is the
 * most frequent colour, the foreground the colour furthest from it that covers at least
 * `minShare` of the region (so a few anti-aliasing pixels do not count, but text strokes do).
 */
export function regionContrast(
  png: Png,
  box: Box,
  minShare = 0.001,
): { ratio: number; background: string; foreground: string } {
  const list = colours(png, box);
  const total = list.reduce((n, c) => n + c.count, 0);
  const bg = list[0];
  if (!bg) throw new Error('the region is empty');
  let best = { ratio: 1, rgb: bg.rgb };
  for (const c of list.slice(1)) {
    if (c.count < 4 || c.count / total < minShare) continue;
    const ratio = contrastRatio(bg.rgb, c.rgb);
    if (ratio > best.ratio) best = { ratio, rgb: c.rgb };
  }
  return { ratio: best.ratio, background: hex(bg.rgb), foreground: hex(best.rgb) };
}

/**
 * Why an image looks blank, or undefined when it does not: one colour covering nearly all of
 * it, or too few colours for any text to be drawn (text brings anti-aliased shades).
 */
export function blankness(png: Png, box?: Box): string | undefined {
  const list = colours(png, box);
  const total = list.reduce((n, c) => n + c.count, 0);
  const top = list[0];
  if (!top) return 'no pixels';
  if (top.count / total > 0.985)
    return `${((100 * top.count) / total).toFixed(1)}% of the pixels are ${hex(top.rgb)}`;
  if (list.length < 16) return `only ${list.length} colours`;
  return undefined;
}

/** How many pixels of a region are close (each channel within `tolerance`) to a colour. */
export function countColour(
  png: Png,
  box: Box,
  rgb: readonly [number, number, number],
  tolerance = 24,
): number {
  let n = 0;
  const x0 = Math.max(0, Math.floor(box.x));
  const y0 = Math.max(0, Math.floor(box.y));
  const x1 = Math.min(png.width, Math.ceil(box.x + box.width));
  const y1 = Math.min(png.height, Math.ceil(box.y + box.height));
  for (let y = y0; y < y1; y++)
    for (let x = x0; x < x1; x++) {
      const o = (y * png.width + x) * 4;
      if (
        Math.abs(png.rgba[o]! - rgb[0]) <= tolerance &&
        Math.abs(png.rgba[o + 1]! - rgb[1]) <= tolerance &&
        Math.abs(png.rgba[o + 2]! - rgb[2]) <= tolerance
      )
        n++;
    }
  return n;
}

/** The number of distinct colours in a region (a blank region has one). */
export function distinctColours(png: Png, box: Box): number {
  return colours(png, box).length;
}
