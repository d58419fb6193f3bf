/** `conformance` command line. Every failure a user can cause is one line on stderr and a documented exit code. */
import yargs, { type Argv } from 'yargs';
import { FAULTS } from '../reference/faults.js';
import { referenceProfile } from '../reference/profile.js';
import { startReference } from '../reference/server.js';
import { EXIT, UserError } from './exit-codes.js';
import { writeFileAtomic } from './fs-atomic.js';

function fail(message: string, code: number = EXIT.usage): never {
  throw new UserError(message, code);
}

function referenceCommand(y: Argv) {
  return y
    .option('port', { type: 'number', default: 8080, describe: 'TCP port (0 picks a free one)' })
    .option('host', { type: 'string', default: '127.0.0.1', describe: 'Address to bind' })
    .option('prefix', { type: 'string', default: '', describe: 'Path prefix of a self-hosted installation, e.g. /api/v3' })
    .option('faults', { type: 'string', default: '', describe: 'Comma-separated named faults to switch on (see `conformance faults`)' })
    .option('vendor', { type: 'string', default: 'service', describe: 'Vendor word in header and media-type names' })
    .option('imports-retired', { type: 'boolean', default: false, describe: 'Answer every source-import endpoint with 503' })
    .option('write-profile', { type: 'string', describe: 'Write the target profile for this reference to a file' });
}

export async function main(argv: string[]): Promise<void> {
  try {
    await yargs(argv)
      .scriptName('conformance')
      .usage('$0 <command> [options]')
      .command('reference', 'Serve the reference implementation of both spec documents', referenceCommand, async (args) => {
        if (!Number.isInteger(args.port) || args.port < 0 || args.port > 65535) fail(`--port must be an integer from 0 to 65535, got ${args.port}`);
        const faults = args.faults.split(',').map((s) => s.trim()).filter(Boolean);
        let running;
        try {
          running = await startReference({
            port: args.port, host: args.host, prefix: args.prefix, faults, vendor: args.vendor, importsRetired: args['imports-retired'],
          });
        } catch (err) {
          const e = err as NodeJS.ErrnoException;
          if (e.code === 'EADDRINUSE') fail(`port ${args.port} on ${args.host} is already in use`);
          if (e.code === 'EADDRNOTAVAIL' || e.code === 'EACCES') fail(`cannot bind ${args.host}:${args.port} (${e.code})`);
          fail(e.message);
        }
        if (args['write-profile']) writeFileAtomic(args['write-profile'], `${JSON.stringify(referenceProfile(running, args.vendor), null, 2)}\n`);
        const label = faults.length ? ` with faults ${faults.join(', ')}` : '';
        process.stdout.write(`reference listening on ${running.url}${label}\n`);
        const stop = () => void running.close().then(() => process.exit(EXIT.ok));
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      })
      .command('faults', 'List the named faults the reference can be started with', (y) => y.option('json', { type: 'boolean', default: false }), (args) => {
        if (args.json) {
          process.stdout.write(`${JSON.stringify(FAULTS, null, 2)}\n`);
          return;
        }
        for (const f of FAULTS) process.stdout.write(`${f.id.padEnd(36)} ${f.requirement.padEnd(36)} ${f.effect}\n`);
      })
      .demandCommand(1, 'name a command (try --help)')
      .strict()
      .help()
      .version(false)
      .fail((message, err) => {
        if (err) throw err;
        throw new UserError(message.split('\n')[0] ?? 'invalid usage');
      })
      .parseAsync();
  } catch (err) {
    const code = err instanceof UserError ? err.exitCode : EXIT.usage;
    process.stderr.write(`conformance: ${(err as Error).message.split('\n')[0]}\n`);
    process.exitCode = code;
  }
}
