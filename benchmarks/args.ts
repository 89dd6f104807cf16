/**
 * The command-line arguments of a benchmark script: node's parseArgs with a usage text, so that
 * `--help` prints it and a mistyped flag says what the script takes (exit 2) rather than a stack.
 */
import { type ParseArgsConfig, parseArgs } from 'node:util';

export function benchArgs<T extends ParseArgsConfig>(
  usage: string,
  config: T,
): ReturnType<typeof parseArgs<T>> {
  const args = config.args ?? process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(`${usage}\n`);
    process.exit(0);
  }
  try {
    return parseArgs(config);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${usage}\n`);
    process.exit(2);
  }
}
