/**
 * Tiny but real media for the demo server: each decodes to a valid file, so clients that
 * render or inspect content get something they can open.
 */

/** A 1×1 red pixel PNG (signature, IHDR, IDAT, IEND with correct CRCs). */
export const TINY_PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR42mP4z8AAAAMBAQD3A0FDAAAAAElFTkSuQmCC';

/** A RIFF/WAVE file: 8 kHz, 8-bit mono PCM, 8 samples. */
export const TINY_WAV_BASE64 = 'UklGRiwAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQgAAACAoIBggKCAYA==';

/** Words offered when completing `arg1` of `test_prompt_with_arguments`. */
export const ARG1_SUGGESTIONS: readonly string[] = [
  'paris',
  'park',
  'party',
  'pasta',
  'test',
  'testing',
  'tester',
];
