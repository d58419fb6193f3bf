/** `conformance proxy export-har` and `import-har`: a cassette as HAR 1.2 (browser devtools, Polly.js), and back. */
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Argv } from 'yargs';
import { bodyBytes } from '../../proxy/body.js';
import { Cassette, CassetteError } from '../../proxy/cassette.js';
import { exportHar, harCassetteMeta, importHar, type HarExchange } from '../../proxy/har.js';
import { Identities } from '../../proxy/identities.js';
import { ExchangeRedactor, mergeRules } from '../../proxy/redact.js';
import { cassetteKeys, UNSTORED_REQUEST_HEADERS, UNSTORED_RESPONSE_HEADERS } from '../../proxy/server.js';
import { endToEnd } from '../../proxy/upstream.js';
import { UserError } from '../../core/exit-codes.js';
import { listOption, urlOption } from './values.js';
import { writeFileAtomic } from '../../core/fs-atomic.js';
import { normalizePrefix } from '../../core/listen.js';

export function exportHarOptions(y: Argv) {
  return y
    .option('fixtures', { type: 'string', demandOption: true, describe: 'Cassette folder to export' })
    .option('out', { type: 'string', demandOption: true, describe: 'HAR file to write' });
}

export interface ExportHarArgs { fixtures: string; out: string }

export function exportHarCommand(args: ExportHarArgs): void {
  const cassette = open(args.fixtures, false);
  // Chronological, and within a key in sequence order, so an import numbers sequences alike.
  // Redacted again on the way out (a fixture may have been edited by hand); a redacted one stays as it is.
  const redact = exchangeRedaction(new ExchangeRedactor(new Identities(cassette.meta), { headers: cassette.meta.redactHeaders, fields: cassette.meta.redactFields }));
  const interactions = cassette.entries().map((e) => ({ ...e.interaction, ...redact(e.interaction) }))
    .sort((a, b) => a.recordedAt.localeCompare(b.recordedAt) || a.sequence - b.sequence);
  writeFileAtomic(args.out, `${JSON.stringify(exportHar(interactions, cassette.meta), null, 2)}\n`);
  process.stdout.write(`${interactions.length} interactions of ${args.fixtures} written to ${args.out}\n`);
}

export function importHarOptions(y: Argv) {
  return y
    .option('har', { type: 'string', demandOption: true, describe: 'HAR 1.2 file to import' })
    .option('fixtures', { type: 'string', demandOption: true, describe: 'New cassette folder to write (must be empty or absent)' })
    .option('upstream', urlOption('upstream', 'API root (origin and prefix) of the recorded server, for HAR from other tools'))
    .option('redact-header', { ...listOption('Also mask these headers'), default: [] as string[] })
    .option('redact-field', { ...listOption('Also mask these body fields or query parameters'), default: [] as string[] });
}

export interface ImportHarArgs { har: string; fixtures: string; upstream?: string | undefined; 'redact-header': string[]; 'redact-field': string[] }

export function importHarCommand(args: ImportHarArgs): void {
  let har: unknown;
  try {
    har = JSON.parse(readFileSync(args.har, 'utf8'));
  } catch (err) {
    throw new UserError(`${args.har}: cannot read as JSON (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  const existed = existsSync(args.fixtures);
  if (existed && readdirSync(args.fixtures).length) throw new UserError(`${args.fixtures} is not empty: import into a new cassette folder`);
  const keys = cassetteKeys();
  let own;
  try {
    own = harCassetteMeta(har);
  } catch (err) {
    throw new UserError(`${args.har}: ${(err as Error).message}`);
  }
  // Every entry is redacted, even one that carries our own cassette metadata (a crafted HAR could);
  // redacting our own export again changes nothing, and its identity table keys live requests alike.
  const rules = mergeRules({ headers: own?.redactHeaders, fields: own?.redactFields }, { headers: args['redact-header'], fields: args['redact-field'] });
  const cassette = open(args.fixtures, true);
  const meta = cassette.meta;
  if (own) Object.assign(meta, { salt: own.salt, digest: own.digest, placeholders: own.placeholders });
  // Replay serves where the recording did: our own export says where; for other tools, the path of --upstream.
  const prefix = own?.prefix ?? (args.upstream ? normalizePrefix(new URL(args.upstream).pathname) : undefined);
  if (prefix !== undefined) meta.prefix = prefix;
  Object.assign(meta, { redactHeaders: rules.headers, redactFields: rules.fields });
  cassette.saveMeta();
  const prepare = exchangeRedaction(new ExchangeRedactor(new Identities(meta, () => cassette.metaChanged()), { headers: meta.redactHeaders, fields: meta.redactFields }));
  let count = 0;
  try {
    try {
      for (const { sequence: _sequence, ...draft } of importHar(har, keys.keyOf, { ...(args.upstream ? { upstream: args.upstream } : {}), prepare })) {
        cassette.add(draft);
        count++;
      }
    } finally {
      cassette.flush();
    }
  } catch (err) {
    // The folder was empty or absent: a failed import leaves it so, never half a cassette.
    if (existed) for (const f of readdirSync(args.fixtures)) rmSync(join(args.fixtures, f), { recursive: true, force: true });
    else rmSync(args.fixtures, { recursive: true, force: true });
    throw new UserError(`${args.har}: ${(err as Error).message}`);
  }
  // Reopening validates every file written, as a replay will.
  open(args.fixtures, false);
  process.stdout.write(`${count} interactions of ${args.har} written to ${args.fixtures} (redacted)\n`);
}

/** An exchange as the recorder would store it: end-to-end headers, the unstored ones dropped, redacted. */
function exchangeRedaction(redactor: ExchangeRedactor): (x: HarExchange) => HarExchange {
  return (x) => {
    const query = new URLSearchParams(Object.entries(x.request.query).flatMap(([name, values]) => values.map((v) => [name, v])));
    const headers = Object.fromEntries(Object.entries(endToEnd(x.request.headers)).filter(([name]) => !UNSTORED_REQUEST_HEADERS.includes(name)));
    const redacted = redactor.request({ method: x.request.method, path: x.request.path, query, headers, body: bodyBytes(x.request.body) });
    const stored = Object.fromEntries(Object.entries(endToEnd(x.response.headers)).filter(([name]) => !UNSTORED_RESPONSE_HEADERS.includes(name)));
    const { contentEncoding } = x.response;
    return { request: redacted.request, response: { ...redactor.response(x.response.status, stored, x.response.body, redacted.scrub), ...(contentEncoding ? { contentEncoding } : {}) } };
  };
}

function open(dir: string, writable: boolean): Cassette {
  try {
    return Cassette.open(dir, { ...cassetteKeys(), writable });
  } catch (err) {
    if (err instanceof CassetteError) throw new UserError(err.message);
    throw err;
  }
}
