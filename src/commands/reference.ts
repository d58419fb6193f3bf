/** `conformance reference`: serve the reference implementation. */
import type { Argv } from 'yargs';
import { referenceProfile } from '../../reference/profile.js';
import { startReference, type RunningReference } from '../../reference/server.js';
import { EXIT, UserError } from '../../core/exit-codes.js';
import { writeFileAtomic } from '../../core/fs-atomic.js';
import { stderrLog } from '../../core/request-log.js';
import { integerOption, portOption, prefixOption, vendorOption } from './values.js';

export function referenceOptions(y: Argv) {
  return y
    .option('port', portOption(8080))
    .option('host', { type: 'string', default: '127.0.0.1', describe: 'Address to bind' })
    .option('prefix', prefixOption('Path prefix of a self-hosted installation, e.g. /api/v3', ''))
    .option('faults', { type: 'string', default: '', describe: 'Comma-separated named faults to switch on (see `conformance faults`)' })
    .option('vendor', vendorOption('Vendor word in header and media-type names', 'service'))
    .option('imports-retired', { type: 'boolean', default: false, describe: 'Answer every source-import endpoint with 503' })
    .option('poll-interval', integerOption('poll-interval', 'a positive integer', 'Seconds asked for in X-Poll-Interval (the platform asks 60; a client obeys it, so less makes polling runs quicker)', { min: 1 }, 60))
    .option('write-profile', { type: 'string', describe: 'Write the target profile for this reference to a file' })
    .option('log', { type: 'boolean', default: false, describe: 'One line per request on stderr: method, path, status, endpoint or miss, milliseconds' });
}

type Args = Awaited<ReturnType<typeof referenceOptions>['argv']>;

export async function referenceCommand(args: Args): Promise<void> {
  const faults = args.faults.split(',').map((s) => s.trim()).filter(Boolean);
  let running: RunningReference;
  try {
    running = await startReference({
      port: args.port, host: args.host, prefix: args.prefix, faults, vendor: args.vendor, importsRetired: args['imports-retired'], pollIntervalSeconds: args['poll-interval'],
      ...(args.log ? { log: stderrLog() } : {}),
    });
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e.code === 'EADDRINUSE') throw new UserError(`port ${args.port} on ${args.host} is already in use`);
    if (e.code === 'EADDRNOTAVAIL' || e.code === 'EACCES') throw new UserError(`cannot bind ${args.host}:${args.port} (${e.code})`);
    throw new UserError(e.message);
  }
  if (args['write-profile']) writeFileAtomic(args['write-profile'], `${JSON.stringify(referenceProfile(running, args.vendor), null, 2)}\n`);
  const stop = () => void running.close().then(() => process.exit(EXIT.ok));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  // Said once Ctrl-C is handled: whoever waits for this line may stop the reference at once.
  const label = faults.length ? ` with faults ${faults.join(', ')}` : '';
  process.stdout.write(`reference listening on ${running.url}${label}\n`);
}
