/** `conformance proxy`: record an API to fixtures, or replay them offline. */
import type { Argv } from 'yargs';
import { CassetteError } from '../../proxy/cassette.js';
import { createProxy, type RunningProxy } from '../../proxy/server.js';
import { DEFAULT_CACHE_BYTES } from '../../proxy/rendered.js';
import type { ProxyMode } from '../../proxy/stage.js';
import { UPSTREAM_TOTAL_TIMEOUT_MS } from '../../proxy/upstream.js';
import { DEFAULT_MAX_BODY_MB, maxBodyBytes } from '../bounds.js';
import { EXIT, UserError } from '../exit-codes.js';
import { Redactor } from '../redact/redactor.js';
import { urlSecrets } from '../redact/credentials.js';
import { stderrLog } from '../request-log.js';

const MODES = ['record', 'replay', 'record-missing', 'passthrough'] as const satisfies readonly ProxyMode[];

/** How long a stopping proxy waits beyond the longest an upstream answer may take (its total timeout). */
const SHUTDOWN_MARGIN_MS = 5_000;
const MB = 1024 * 1024;

export function proxyOptions(y: Argv) {
  return y
    .option('record', { type: 'boolean', default: false, describe: 'Forward everything to --target and write every exchange to --fixtures' })
    .option('replay', { type: 'boolean', default: false, describe: 'Answer from --fixtures only, never touching the network (the default)' })
    .option('record-missing', { type: 'boolean', default: false, describe: 'Replay what --fixtures has, forward and record the rest' })
    .option('passthrough', { type: 'boolean', default: false, describe: 'Forward everything, record nothing' })
    .option('target', { type: 'string', describe: 'Upstream API root, e.g. https://host/api/v3' })
    .option('fixtures', { type: 'string', describe: 'Cassette folder (one JSON file per interaction)' })
    .option('port', { type: 'number', default: 8081, describe: 'TCP port (0 picks a free one)' })
    .option('host', { type: 'string', default: '127.0.0.1', describe: 'Address to bind' })
    .option('prefix', { type: 'string', default: '', describe: 'Path prefix the proxy serves under, e.g. /api/v3' })
    .option('redact-header', { type: 'string', array: true, default: [] as string[], describe: 'Also mask this header (repeatable)' })
    .option('redact-field', { type: 'string', array: true, default: [] as string[], describe: 'Also mask this body field or query parameter (repeatable)' })
    .option('upstream-timeout', { type: 'number', default: 30_000, describe: 'Milliseconds the upstream may stay silent, before an answer or within it' })
    .option('upstream-total-timeout', { type: 'number', default: UPSTREAM_TOTAL_TIMEOUT_MS, describe: 'Milliseconds for each whole upstream answer, body included' })
    .option('max-body', { type: 'number', default: DEFAULT_MAX_BODY_MB, describe: 'Largest request body (413) and upstream answer, as sent and decoded (502), in MB' })
    .option('core-limit', { type: 'number', describe: 'Replay: authenticated core requests per hour in the synthesized rate limits' })
    .option('search-limit', { type: 'string', describe: 'Replay: search requests per minute in the synthesized rate limits, or "off" for no limit (load tests)' })
    .option('cache-mb', { type: 'number', default: DEFAULT_CACHE_BYTES / MB, describe: 'Replay: megabytes of rendered answers kept for reuse, least recently used dropped first' })
    .option('latency', { type: 'string', describe: 'Delay before each answer: milliseconds, or "recorded" for the upstream\'s recorded time' })
    .option('fault-rate', { type: 'number', describe: 'Share of requests (0 to 1) answered with --fault-status instead' })
    .option('fault-status', { type: 'number', default: 500, describe: 'Status code of injected faults' })
    .option('fault-seed', { type: 'number', default: 0, describe: 'Seed of the fault draws (same seed, same faults)' })
    .option('log', { type: 'boolean', default: false, describe: 'One line per request on stderr: method, path, status, fixture or miss, milliseconds' })
    // Imported when used: serving never loads the HAR converter.
    .command('export-har', 'Write a cassette as one HAR 1.2 file (browser devtools, Polly.js)',
      async (h) => (await har()).exportHarOptions(h), async (a) => (await har()).exportHarCommand(a))
    .command('import-har', 'Write a HAR 1.2 file into a new cassette, redacted as a recording is',
      async (h) => (await har()).importHarOptions(h), async (a) => (await har()).importHarCommand(a));
}

const har = () => import('./har.js');

type Args = Awaited<ReturnType<typeof proxyOptions>['argv']>;

export async function proxyCommand(args: Args): Promise<void> {
  const chosen = MODES.filter((m) => args[m]);
  if (chosen.length > 1) throw new UserError(`choose one mode, got ${chosen.map((m) => `--${m}`).join(' and ')}`);
  const mode: ProxyMode = chosen[0] ?? 'replay';
  if (!Number.isInteger(args.port) || args.port < 0 || args.port > 65535) throw new UserError(`--port must be an integer from 0 to 65535, got ${args.port}`);
  if (mode !== 'replay' && !args.target) throw new UserError(`--${mode} needs --target URL`);
  if (args.target && !URL.canParse(args.target)) throw new UserError(`--target is not a URL: ${args.target}`);
  if (mode !== 'passthrough' && !args.fixtures) throw new UserError(`--${mode} needs --fixtures DIR`);
  const latency = args.latency === undefined ? undefined : args.latency === 'recorded' ? 'recorded' as const : Number(args.latency);
  if (typeof latency === 'number' && !(latency >= 0)) throw new UserError(`--latency must be milliseconds or "recorded", got ${args.latency}`);
  for (const flag of ['upstream-timeout', 'upstream-total-timeout'] as const) {
    if (!(args[flag] > 0)) throw new UserError(`--${flag} must be a positive number of milliseconds, got ${args[flag]}`);
  }
  const maxBody = maxBodyBytes(args['max-body']);
  if (args['core-limit'] !== undefined && !(Number.isInteger(args['core-limit']) && args['core-limit'] > 0)) throw new UserError(`--core-limit must be a positive integer, got ${args['core-limit']}`);
  const searchLimit = args['search-limit'] === undefined || args['search-limit'] === 'off' ? args['search-limit'] : Number(args['search-limit']);
  if (typeof searchLimit === 'number' && !(Number.isInteger(searchLimit) && searchLimit > 0)) throw new UserError(`--search-limit must be a positive integer or "off", got ${args['search-limit']}`);
  if (!(args['cache-mb'] >= 0)) throw new UserError(`--cache-mb must be a number of megabytes >= 0, got ${args['cache-mb']}`);
  const fault = args['fault-rate'] === undefined ? undefined : { rate: args['fault-rate'], status: args['fault-status'], seed: args['fault-seed'] };
  let running: RunningProxy;
  try {
    running = await createProxy({
      // No --prefix: the target's path, or in replay the recording's (createProxy's default); `--prefix /` serves at the root.
      mode, port: args.port, host: args.host, ...(args.prefix ? { prefix: args.prefix } : {}),
      ...(args.target ? { target: args.target } : {}), ...(args.fixtures ? { fixtures: args.fixtures } : {}),
      redactHeaders: args['redact-header'], redactFields: args['redact-field'], upstreamTimeoutMs: args['upstream-timeout'],
      upstreamTotalTimeoutMs: args['upstream-total-timeout'], maxBodyBytes: maxBody,
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
  const size = running.cassette ? ` (${running.cassette.size} fixtures in ${running.cassette.dir})` : '';
  process.stdout.write(`proxy (${mode}) listening on ${running.url}${size}\n`);
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
}
