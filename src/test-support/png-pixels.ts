/**
 * A small PNG decoder for checking screenshots (8-bit RGB or RGBA, not interlaced: what
 * Chromium writes): the pixels of a region, counted by colour. Test-only.
 */
import assert from 'node:assert/strict';
import { inflateSync } from 'node:zlib';

/** A decoded image: RGBA bytes, row by row. */
export interface Pixels {
  width: number;
  height: number;
  rgba: Uint8Array;
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/** Decodes a PNG screenshot. */
export function decodePng(png: Buffer): Pixels {
  assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'a PNG');
  let width = 0;
  let height = 0;
  let channels = 0;
  const idat: Buffer[] = [];
  for (let at = 8; at < png.length;) {
    const length = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    const data = png.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      assert.equal(data[8], 8, '8-bit samples');
      assert.equal(data[12], 0, 'not interlaced');
      channels = data[9] === 6 ? 4 : data[9] === 2 ? 3 : 0;
      assert.ok(channels > 0, `colour type ${data[9]} is RGB or RGBA`);
    } else if (type === 'IDAT') idat.push(data);
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const out = new Uint8Array(width * height * 4);
  let prev = new Uint8Array(stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const cur = new Uint8Array(stride);
    for (let i = 0; i < stride; i++) {
      const a = i >= channels ? cur[i - channels]! : 0;
      const b = prev[i]!;
      const c = i >= channels ? prev[i - channels]! : 0;
      const x = line[i]!;
      cur[i] =
        (filter === 0
          ? x
          : filter === 1
            ? x + a
            : filter === 2
              ? x + b
              : filter === 3
                ? x + ((a + b) >> 1)
                : x + paeth(a, b, c)) & 0xff;
    }
    for (let px = 0; px < width; px++) {
      const o = (y * width + px) * 4;
      out[o] = cur[px * channels]!;
      out[o + 1] = cur[px * channels + 1]!;
      out[o + 2] = cur[px * channels + 2]!;
      out[o + 3] = channels === 4 ? cur[px * channels + 3]! : 255;
    }
    prev = cur;
  }
  return { width, height, rgba: out };
}

/** How many pixels of a region are close (each channel within `tolerance`) to a colour. */
export function countColour(
  img: Pixels,
  box: { x: number; y: number; width: number; height: number },
  rgb: readonly [number, number, number],
  tolerance = 24,
): number {
  let n = 0;
  const x0 = Math.max(0, Math.floor(box.x));
  const y0 = Math.max(0, Math.floor(box.y));
  const x1 = Math.min(img.width, Math.ceil(box.x + box.width));
  const y1 = Math.min(img.height, Math.ceil(box.y + box.height));
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const o = (y * img.width + x) * 4;
      if (
        Math.abs(img.rgba[o]! - rgb[0]) <= tolerance &&
        Math.abs(img.rgba[o + 1]! - rgb[1]) <= tolerance &&
        Math.abs(img.rgba[o + 2]! - rgb[2]) <= tolerance
      )
        n++;
    }
  }
  return n;
}

/** The number of distinct colours in a region (a blank region has one). */
export function distinctColours(
  img: Pixels,
  box: { x: number; y: number; width: number; height: number },
): number {
  const seen = new Set<number>();
  for (let y = Math.max(0, Math.floor(box.y)); y < Math.min(img.height, box.y + box.height); y++) {
    for (let x = Math.max(0, Math.floor(box.x)); x < Math.min(img.width, box.x + box.width); x++) {
      const o = (y * img.width + x) * 4;
      seen.add((img.rgba[o]! << 16) | (img.rgba[o + 1]! << 8) | img.rgba[o + 2]!);
    }
  }
  return seen.size;
}
