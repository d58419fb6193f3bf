/** `conformance` command line. Every failure a user can cause is one line on stderr and a documented exit code. */
import yargs from 'yargs';
import { FAULTS } from '../reference/faults.js';
import { proxyCommand, proxyOptions } from './commands/proxy.js';
import { referenceCommand, referenceOptions } from './commands/reference.js';
import { runCommand, runOptions } from './commands/run.js';
import { validateCommand, validateOptions } from './commands/validate.js';
import { EXIT, UserError } from './exit-codes.js';
import { Redactor } from './redact/redactor.js';

export async function main(argv: string[]): Promise<void> {
  // A reader that stops early (`conformance --list | head`) is not an error.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(EXIT.ok);
    throw err;
  });
  try {
    await yargs(argv)
      .scriptName('conformance')
      .usage('$0 [options]                 run the suites (against the built-in reference when no --base-url)\n$0 <command> [options]')
      .command('$0', 'Run the conformance suites and write reports', runOptions, runCommand)
      .command('reference', 'Serve the reference implementation of both spec documents', referenceOptions, referenceCommand)
      .command('proxy', 'Record an API to fixtures, or replay them offline (record/replay proxy)', proxyOptions, proxyCommand)
      .command('validate <resource> <file>', 'Grade a saved JSON document against a resource schema', validateOptions, validateCommand)
      .command('faults', 'List the named faults the reference can be started with', (y) => y.option('json', { type: 'boolean', default: false }), (args) => {
        if (args.json) {
          process.stdout.write(`${JSON.stringify(FAULTS, null, 2)}\n`);
          return;
        }
        for (const f of FAULTS) process.stdout.write(`${f.id.padEnd(36)} ${f.requirement.padEnd(36)} ${f.effect}\n`);
      })
      .strict()
      .help()
      .version(false)
      .epilogue('Exit codes: 0 nothing failed, 1 a check failed, 2 usage or profile error (a wrong prefix, every token rejected, nothing selected or nothing checked), 3 target unreachable or not answering this API, 4 request budget or rate limit exhausted, 130 interrupted (changes undone, reports written).')
      .fail((message, err) => {
        if (err) throw err;
        throw new UserError(message.split('\n')[0] ?? 'invalid usage');
      })
      .parseAsync();
  } catch (err) {
    const code = err instanceof UserError ? err.exitCode : EXIT.usage;
    // A message may quote an argument (a URL with its userinfo): it goes through the redactor's patterns.
    process.stderr.write(`conformance: ${new Redactor().text((err as Error).message.split('\n')[0] ?? '')}\n`);
    process.exitCode = code;
  }
}
