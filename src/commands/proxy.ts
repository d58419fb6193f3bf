/** `conformance proxy`: record an API to fixtures, or replay them offline. */
import { setFlagsFromString } from 'node:v8';
import type { Argv } from 'yargs';
import { CassetteError } from '../../proxy/cassette.js';
import { createProxy, type RunningProxy } from '../../proxy/server.js';
import { DEFAULT_CACHE_BYTES } from '../../proxy/rendered.js';
import type { ProxyMode } from '../../proxy/stage.js';
import { UPSTREAM_TOTAL_TIMEOUT_MS } from '../../proxy/upstream.js';
import { MB } from '../../core/bounds.js';
import { EXIT, UserError } from '../../core/exit-codes.js';
import { Redactor } from '../../core/redact/redactor.js';
import { urlSecrets } from '../../core/redact/credentials.js';
import { stderrLog } from '../../core/request-log.js';
import { POSITIVE, integerOption, listOption, maxBodyOption, numberOption, numberOrWordOption, portOption, prefixOption, urlOption } from './values.js';

const MODES = ['record', 'replay', 'record-missing', 'passthrough'] as const satisfies readonly ProxyMode[];

/** How long a stopping proxy waits beyond the longest an upstream answer may take (its total timeout). */
const SHUTDOWN_MARGIN_MS = 5_000;
const MILLISECONDS = 'a positive number of milliseconds';

export function proxyOptions(y: Argv) {
  return y
    .option('record', { type: 'boolean', default: false, describe: 'Forward everything to --target and write every exchange to --fixtures' })
    .option('replay', { type: 'boolean', default: false, describe: 'Answer from --fixtures only, never touching the network (the default)' })
    .option('record-missing', { type: 'boolean', default: false, describe: 'Replay what --fixtures has, forward and record the rest' })
    .option('passthrough', { type: 'boolean', default: false, describe: 'Forward everything, record nothing' })
    .option('target', urlOption('target', 'Upstream API root, e.g. https://host/api/v3'))
    .option('fixtures', { type: 'string', describe: 'Cassette folder (one JSON file per interaction)' })
    .option('port', portOption(8081))
    .option('host', { type: 'string', default: '127.0.0.1', describe: 'Address to bind' })
    .option('prefix', prefixOption('Path prefix the proxy serves under, e.g. /api/v3', ''))
    .option('redact-header', { ...listOption('Also mask these headers'), default: [] as string[] })
    .option('redact-field', { ...listOption('Also mask these body fields or query parameters'), default: [] as string[] })
    .option('upstream-timeout', numberOption('upstream-timeout', MILLISECONDS, 'Milliseconds the upstream may stay silent, before an answer or within it', POSITIVE, 30_000))
    .option('upstream-total-timeout', numberOption('upstream-total-timeout', MILLISECONDS, 'Milliseconds for each whole upstream answer, body included', POSITIVE, UPSTREAM_TOTAL_TIMEOUT_MS))
    .option('max-body', maxBodyOption('Largest request body (413) and upstream answer, as sent and decoded (502), in MB'))
    .option('core-limit', integerOption('core-limit', 'a positive integer', 'Replay: authenticated core requests per hour in the synthesized rate limits', { min: 1 }))
    .option('search-limit', numberOrWordOption('search-limit', 'off', 'a positive integer or "off"', 'Replay: search requests per minute in the synthesized rate limits, or "off" for no limit (load tests)', { min: 1 }, true))
    .option('cache-mb', numberOption('cache-mb', 'a number of megabytes, 0 or more', 'Replay: megabytes of rendered answers kept for reuse, least recently used dropped first', { min: 0 }, DEFAULT_CACHE_BYTES / MB))
    .option('latency', numberOrWordOption('latency', 'recorded', 'milliseconds or "recorded"', 'Delay before each answer: milliseconds, or "recorded" for the upstream\'s recorded time', { min: 0 }, false))
    .option('fault-rate', numberOption('fault-rate', 'a number from 0 to 1', 'Share of requests (0 to 1) answered with --fault-status instead', { min: 0, max: 1 }))
    .option('fault-status', integerOption('fault-status', 'an HTTP status from 100 to 599', 'Status code of injected faults', { min: 100, max: 599 }, 500))
    .option('fault-seed', integerOption('fault-seed', 'an integer, 0 or more', 'Seed of the fault draws (same seed, same faults)', { min: 0 }, 0))
    .option('log', { type: 'boolean', default: false, describe: 'One line per request on stderr: method, path, status, fixture or miss, milliseconds' })
    // Imported when used: serving never loads the HAR converter.
    .command('export-har', 'Write a cassette as one HAR 1.2 file (browser devtools, Polly.js)',
      async (h) => (await har()).exportHarOptions(h), async (a) => (await har()).exportHarCommand(a))
    .command('import-har', 'Write a HAR 1.2 file into a new cassette, redacted as a recording is',
      async (h) => (await har()).importHarOptions(h), async (a) => (await har()).importHarCommand(a));
}

const har = () => import('./har.js');

/**
 * A replaying proxy's memory is mostly V8's slack, not what it keeps: the young generation doubles
 * (up to 2 x 16 MB) whenever many objects survive a collection, as the answers kept while a replay
 * first serves its fixtures do, and stays that size; and the old generation may grow to several
 * times what is live before it is collected. The proxy bounds its caches itself and its garbage is
 * per request and short-lived, so it keeps the young generation at its initial size and collects
 * the old one once it has grown a fifth over what was live (docs/performance.md: a third less
 * memory at 10,000 fixtures, requests per second unchanged). V8 reads both flags each time it
 * sizes a generation, so setting them here, before the cassette is opened, takes effect.
 */
function boundHeapGrowth(): void {
  setFlagsFromString('--semi-space-growth-factor=1');
  setFlagsFromString('--heap-growing-percent=20');
}

type Args = Awaited<ReturnType<typeof proxyOptions>['argv']>;

export async function proxyCommand(args: Args): Promise<void> {
  const chosen = MODES.filter((m) => args[m]);
  if (chosen.length > 1) throw new UserError(`choose one mode, got ${chosen.map((m) => `--${m}`).join(' and ')}`);
  const mode: ProxyMode = chosen[0] ?? 'replay';
  if (mode !== 'replay' && !args.target) throw new UserError(`--${mode} needs --target URL`);
  if (mode !== 'passthrough' && !args.fixtures) throw new UserError(`--${mode} needs --fixtures DIR`);
  const { latency, 'search-limit': searchLimit } = args;
  const fault = args['fault-rate'] === undefined ? undefined : { rate: args['fault-rate'], status: args['fault-status'], seed: args['fault-seed'] };
  boundHeapGrowth();
  let running: RunningProxy;
  try {
    running = await createProxy({
      // No --prefix: the target's path, or in replay the recording's (createProxy's default); `--prefix /` serves at the root.
      mode, port: args.port, host: args.host, ...(args.prefix ? { prefix: args.prefix } : {}),
      ...(args.target ? { target: args.target } : {}), ...(args.fixtures ? { fixtures: args.fixtures } : {}),
      redactHeaders: args['redact-header'], redactFields: args['redact-field'], upstreamTimeoutMs: args['upstream-timeout'],
      upstreamTotalTimeoutMs: args['upstream-total-timeout'], maxBodyBytes: args['max-body'],
      cacheBytes: Math.round(args['cache-mb'] * MB),
      ...(args['core-limit'] !== undefined || searchLimit !== undefined ? {
        rateLimits: { ...(args['core-limit'] !== undefined ? { coreLimit: args['core-limit'] } : {}), ...(searchLimit !== undefined ? { searchLimit } : {}) },
      } : {}),
      // The log masks what the fixtures mask: the extra names and the target's userinfo too.
      ...(args.log ? { log: stderrLog(new Redactor({ headers: args['redact-header'], fields: args['redact-field'] }, urlSecrets(args.target ?? ''))) } : {}),
      ...(latency !== undefined || fault ? { chaos: { ...(latency !== undefined ? { latency } : {}), ...(fault ? { fault } : {}) } } : {}),
    });
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e.code === 'EADDRINUSE') throw new UserError(`port ${args.port} on ${args.host} is already in use`);
    if (e.code === 'EADDRNOTAVAIL' || e.code === 'EACCES') throw new UserError(`cannot bind ${args.host}:${args.port} (${e.code})`);
    if (err instanceof CassetteError) throw new UserError(err.message);
    throw new UserError(e.message);
  }
  // Requests in flight finish and their fixtures are written before the process exits; a second
  // signal, or a request still hanging after the grace period, ends it at once.
  const stop = () => {
    process.once('SIGINT', () => process.exit(130));
    const grace = args['upstream-total-timeout'] + SHUTDOWN_MARGIN_MS;
    setTimeout(() => {
      process.stderr.write(`conformance: requests still in flight after ${grace / 1000} s; exiting without them\n`);
      process.exit(EXIT.unreachable);
    }, grace).unref();
    running.close().then(() => process.exit(EXIT.ok), (err: unknown) => {
      process.stderr.write(`conformance: closing the proxy: ${(err as Error).message.split('\n')[0]}\n`);
      process.exit(EXIT.checkFailed);
    });
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  // Said once Ctrl-C is handled: whoever waits for this line may stop the proxy at once.
  const size = running.cassette ? ` (${running.cassette.size} fixtures in ${running.cassette.dir})` : '';
  process.stdout.write(`proxy (${mode}) listening on ${running.url}${size}\n`);
}
