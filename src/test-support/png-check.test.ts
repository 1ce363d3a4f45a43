// The screenshot checker's decoder and measures, on PNGs built here with every row filter.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { deflateSync } from 'node:zlib';
import { blankness, contrastRatio, decodePng, regionContrast } from './png-check.js';

function crc32(buf: Buffer): number {
  let c = ~0;
  for (const byte of buf) {
    c ^= byte;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
  }
  return ~c >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])));
  return Buffer.concat([head, data, crc]);
}

/** An RGB PNG, row y encoded with filter y % 5 (the encoder's side of each filter). */
function encode(
  width: number,
  height: number,
  pixel: (x: number, y: number) => [number, number, number],
): Buffer {
  const stride = width * 3;
  const px = Buffer.alloc(height * stride);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) px.set(pixel(x, y), y * stride + x * 3);
  const raw = Buffer.alloc(height * (stride + 1));
  for (let y = 0; y < height; y++) {
    const f = y % 5;
    raw[y * (stride + 1)] = f;
    for (let i = 0; i < stride; i++) {
      const x = px[y * stride + i]!;
      const a = i >= 3 ? px[y * stride + i - 3]! : 0;
      const b = y > 0 ? px[(y - 1) * stride + i]! : 0;
      const c = y > 0 && i >= 3 ? px[(y - 1) * stride + i - 3]! : 0;
      const p = a + b - c;
      const pred =
        f === 0
          ? 0
          : f === 1
            ? a
            : f === 2
              ? b
              : f === 3
                ? (a + b) >> 1
                : Math.abs(p - a) <= Math.abs(p - b) && Math.abs(p - a) <= Math.abs(p - c)
                  ? a
                  : Math.abs(p - b) <= Math.abs(p - c)
                    ? b
                    : c;
      raw[y * (stride + 1) + 1 + i] = (x - pred) & 0xff;
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

test('decodes every row filter back to the pixels', () => {
  const pixel = (x: number, y: number): [number, number, number] => [
    (x * 37 + y) & 255,
    (y * 53) & 255,
    (x ^ y) & 255,
  ];
  const png = decodePng(encode(23, 11, pixel));
  assert.equal(png.width, 23);
  assert.equal(png.height, 11);
  for (let y = 0; y < 11; y++)
    for (let x = 0; x < 23; x++) {
      const i = (y * 23 + x) * 4;
      assert.deepEqual([...png.rgba.subarray(i, i + 4)], [...pixel(x, y), 255], `pixel ${x},${y}`);
    }
});

test('contrast by WCAG 2: black on white is 21:1, equal colours 1:1', () => {
  assert.equal(contrastRatio(0x000000, 0xffffff), 21);
  assert.equal(contrastRatio(0x777777, 0x777777), 1);
  // #767676 on white is the classic AA boundary, 4.54:1.
  assert.ok(Math.abs(contrastRatio(0x767676, 0xffffff) - 4.54) < 0.01);
});

test('a blank image is told apart from one with text-like detail', () => {
  const white = decodePng(encode(40, 20, () => [255, 255, 255]));
  assert.match(String(blankness(white)), /100\.0% of the pixels are #ffffff/);
  const noisy = decodePng(encode(40, 20, (x, y) => [(x * 7) & 255, (y * 13) & 255, 128]));
  assert.equal(blankness(noisy), undefined);
  // Dark "text" strokes on a light button: the ratio of the two colours.
  const button = decodePng(
    encode(40, 20, (x, y) => (x % 5 === 0 && y > 4 && y < 15 ? [0x10, 0x16, 0x3a] : [0x8e, 0xa2, 0xff])),
  );
  const c = regionContrast(button, { x: 0, y: 0, width: 40, height: 20 });
  assert.equal(c.background, '#8ea2ff');
  assert.equal(c.foreground, '#10163a');
  assert.ok(c.ratio > 6, String(c.ratio));
});

test('what it cannot read is refused, not misread', () => {
  assert.throws(() => decodePng(Buffer.from('not a png at all')), /not a PNG/);
});
