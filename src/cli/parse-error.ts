import { CliFailure, ExitCode } from './exit-codes.js';
import { suggestion } from './suggest.js';

/**
 * A command line node:util's parseArgs refused, as one line a person can act on: the option
 * in question, a "did you mean" among the command's options, and where the help is. Node's
 * own wording talks about its parser (positionals, `-- "--x"`), not about the command.
 */
export function argumentsError(
  e: unknown,
  command: string,
  options: Readonly<Record<string, { type: string; short?: string }>>,
): CliFailure {
  const see = `See: mcpkit ${command} --help`;
  const code = (e as { code?: unknown }).code;
  const message = e instanceof Error ? e.message : String(e);
  const quoted = /'([^']+)'/.exec(message)?.[1];
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && quoted !== undefined) {
    const known = Object.entries(options).flatMap(([name, o]) => [
      `--${name}`,
      ...(o.short !== undefined ? [`-${o.short}`] : []),
    ]);
    return new CliFailure(
      `Unknown option ${quoted} for "mcpkit ${command}"${suggestion(quoted, known)}. ${see}`,
      ExitCode.Usage,
    );
  }
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && quoted !== undefined) {
    const option = quoted.split(' ')[0]!;
    return new CliFailure(`${option} needs a value (${quoted}). ${see}`, ExitCode.Usage);
  }
  if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL' && quoted !== undefined) {
    return new CliFailure(
      `Unexpected argument "${quoted}": "mcpkit ${command}" takes options only. ${see}`,
      ExitCode.Usage,
    );
  }
  return new CliFailure(`${message}. ${see}`, ExitCode.Usage);
}
