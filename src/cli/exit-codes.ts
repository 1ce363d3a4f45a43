/** Exit codes, by convention. */
export const ExitCode = {
  Ok: 0,
  /** A tool answered with `isError: true`. */
  ToolError: 1,
  /** The command line was wrong. */
  Usage: 2,
  /** The server could not be reached, or broke the protocol. */
  Connection: 3,
} as const;

/** A failure that ends the command with a given exit code and one readable line. */
export class CliFailure extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}
