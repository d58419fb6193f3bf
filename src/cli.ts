/** `conformance` command line. Every failure a user can cause is one line on stderr and a documented exit code. */
import yargs from 'yargs';
import { terminalText } from '../core/inert.js';
import { EXIT, UserError } from '../core/exit-codes.js';
import { readPackageJson } from '../core/paths.js';
import { Redactor } from '../core/redact/redactor.js';

export async function main(argv: string[]): Promise<void> {
  // A reader that stops early (`conformance --list | head`) is not an error.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(EXIT.ok);
    throw err;
  });
  try {
    const cli = yargs(argv);
    // Read before parsing: entering a command resets what the instance knows of its siblings.
    let commands: string[] = [];
    cli
      .scriptName('conformance')
      .usage('$0 [options]                 run the suites (against the built-in reference when no --base-url)\n$0 <command> [options]')
      // Each command's module is imported when that command is parsed: a command loads only what it uses.
      .command('$0', 'Run the conformance suites and write reports', async (y) => (await runOptions()).runOptions(y), async (args) => (await run()).runCommand(args))
      .command('reference', 'Serve the reference implementation of both spec documents',
        async (y) => (await reference()).referenceOptions(y), async (args) => (await reference()).referenceCommand(args))
      .command('proxy', 'Record an API to fixtures, or replay them offline (record/replay proxy)',
        async (y) => (await proxy()).proxyOptions(y), async (args) => (await proxy()).proxyCommand(args))
      .command('undo <journal>', 'Undo the changes a run left in its journal (it was killed, or an undo failed)',
        async (y) => (await undo()).undoOptions(y), async (args) => (await undo()).undoCommand(args))
      .command('merge [reports..]', 'Merge the report.json files of the shards of one run (--shard i/n) into the reports of the whole run',
        async (y) => (await merge()).mergeOptions(y), async (args) => (await merge()).mergeCommand(args))
      .command('validate <resource> <file>', 'Grade a saved JSON document against a resource schema',
        async (y) => (await validate()).validateOptions(y), async (args) => (await validate()).validateCommand(args))
      .command('openapi', 'Write the OpenAPI 3.1 description of both spec documents (JSON) to stdout',
        async (y) => (await openapi()).openapiOptions(y), async (args) => (await openapi()).openapiCommand(args))
      .command('faults', 'List the named faults the reference can be started with', (y) => y.option('json', { type: 'boolean', default: false }), async (args) => {
        const { FAULTS } = await import('../reference/faults.js');
        if (args.json) {
          process.stdout.write(`${JSON.stringify(FAULTS, null, 2)}\n`);
          return;
        }
        for (const f of FAULTS) process.stdout.write(`${f.id.padEnd(36)} ${f.requirement.padEnd(36)} ${f.effect}\n`);
      })
      .strict()
      .help()
      .alias('h', 'help')
      .version(readPackageJson<{ version: string }>('package.json').version)
      .epilogue('Exit codes: 0 nothing failed, 1 a check failed, 2 usage or profile error (a wrong prefix, every token rejected, nothing selected or nothing checked), 3 target unreachable or not answering this API, 4 request budget or rate limit exhausted, 5 (undo) a change could not be undone, 130 interrupted (changes undone, reports written).')
      .fail((message, err) => {
        if (err) throw err;
        throw new UserError(withSuggestion(message.split('\n')[0] ?? 'invalid usage', flagsOf(cli), commands));
      });
    const internals = (cli as unknown as Introspectable).getInternalMethods();
    commands = internals.getCommandInstance().getCommands();
    // yargs renders a command's whole help text as the command starts, in case its handler shows it;
    // no handler here does (--help is answered before any handler), and rendering it costs a command
    // such as the proxy about 40 ms of its startup.
    internals.getUsageInstance().cacheHelpMessage = () => {};
    await cli.parseAsync();
  } catch (err) {
    const code = err instanceof UserError ? err.exitCode : EXIT.usage;
    // The message may quote the target (a stopped run's diagnosis) or an argument (a URL with its userinfo): redacted, and shown, never obeyed by the terminal.
    process.stderr.write(`conformance: ${terminalText(new Redactor().text((err as Error).message.split('\n')[0] ?? ''))}\n`);
    process.exitCode = code;
  }
}

const runOptions = () => import('./commands/run-options.js');
const run = () => import('./commands/run.js');
const reference = () => import('./commands/reference.js');
const proxy = () => import('./commands/proxy.js');
const validate = () => import('./commands/validate.js');
const merge = () => import('./commands/merge.js');
const undo = () => import('./commands/undo.js');
const openapi = () => import('./commands/openapi.js');

/** The parts of a yargs instance that know the flags and commands in effect (not in its type declarations). */
interface Introspectable {
  getOptions(): { key: Record<string, unknown> };
  getInternalMethods(): { getCommandInstance(): { getCommands(): string[] }; getUsageInstance(): { cacheHelpMessage(): void } };
}

/** The long flags of the command being parsed. */
function flagsOf(cli: unknown): string[] {
  return Object.keys((cli as Introspectable).getOptions().key).filter((k) => k.length > 1 && !/[A-Z]/.test(k));
}

/** "Unknown argument: base-ur" gains "(did you mean --base-url?)" when a known flag or command is one or two edits away. */
function withSuggestion(message: string, flags: string[], commands: string[]): string {
  const m = /^Unknown arguments?: (.+)$/.exec(message);
  if (!m) return message;
  // yargs lists a dashed flag twice, also camel-cased: only the spelling the user typed counts.
  const typed = m[1]!.split(', ').filter((a) => !/[A-Z]/.test(a));
  const hints = typed.map((arg) => {
    const flag = closest(arg, flags);
    if (flag) return `${arg} (did you mean --${flag}?)`;
    const command = closest(arg, commands);
    return command ? `${arg} (did you mean ${command}?)` : arg;
  });
  return `unknown ${typed.length > 1 ? 'arguments' : 'argument'} ${hints.join(', ')}; see --help`;
}

function closest(word: string, candidates: string[]): string | undefined {
  const scored = candidates.map((c) => [c, distance(word, c)] as const).filter(([, d]) => d <= Math.min(2, Math.floor(word.length / 3) + 1));
  return scored.sort((a, b) => a[1] - b[1])[0]?.[0];
}

/** Levenshtein distance: edits that turn one word into the other. */
function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length]!;
}
