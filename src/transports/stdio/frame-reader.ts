import { ErrorCode, InvalidMessage, WireError, parseFrameBytes } from '../../jsonrpc/index.js';
import type { TransportSink } from '../../jsonrpc/index.js';
import { LineFramer } from './line-framer.js';

/** 16 MiB: the default ceiling for one stdio message. */
export const DEFAULT_MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

/** Turns stdio bytes into parsed frames for a sink, refusing lines over the size limit. */
export function createFrameReader(maxBytes: number, sink: () => TransportSink | undefined): LineFramer {
  return new LineFramer(maxBytes, {
    line(bytes) {
      sink()?.frame(parseFrameBytes(bytes));
    },
    oversize(bytes) {
      sink()?.frame(
        new InvalidMessage(
          new WireError(
            ErrorCode.InvalidRequest,
            `Message of ${bytes} bytes exceeds the ${maxBytes}-byte limit and was discarded`,
          ),
          null,
          true,
        ),
      );
    },
  });
}
