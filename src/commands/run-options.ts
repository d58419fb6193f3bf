/** The default command's flags, apart from the command: a wrong flag or --help loads none of the suites, the client or the reports. */
import type { Argv } from 'yargs';
import { TRANSCRIPT_SCOPES } from '../../reports/transcripts.js';
import { DEFAULT_MAX_TOTAL_WAIT_S, DEFAULT_MAX_WAIT_S, TOTAL_TIMEOUT_MS } from '../../core/client-defaults.js';
import { POSITIVE, integerOption, listOption, maxBodyOption, numberOption, prefixOption, shardOption, urlOption, vendorOption } from './values.js';
import { verdictOptions } from './verdict-options.js';

const SECONDS = 'a positive number of seconds';

export function runOptions(y: Argv) {
  return verdictOptions(y)
    .option('base-url', urlOption('base-url', 'API root of the target; without it (and without --profile) the built-in reference is started'))
    .option('profile', { type: 'string', describe: 'Target profile JSON (see docs/profile.md), or `reference`: the built-in reference\'s tokens and resources, for a target that answers as it does (e.g. a proxy replaying a cassette recorded from it)' })
    .option('suite', listOption('Run only these suites (the part of a check id before its first dot; see --list)'))
    .option('grep', { type: 'string', describe: 'Run only checks whose id or title contains this text' })
    .option('shard', shardOption('Run only part i of n of the selected checks (e.g. 2/3; a scenario that shares state stays whole in one part); `conformance merge` joins the parts\' report.json files'))
    .option('exhaust-rate-limit', { type: 'boolean', default: false, describe: 'Also run the check that spends the anonymous search window to see the refusal' })
    .option('strict', { type: 'boolean', default: false, describe: 'Also report response fields the spec does not describe (as information)' })
    .option('allow-writes', { type: 'boolean', describe: 'Allow checks that change the target (PATCH, PUT, DELETE, mark-as-read); on by default only for the built-in reference' })
    .option('vendor', vendorOption('Vendor word in header and media-type names: service or github'))
    .option('prefix', prefixOption('Path prefix of a self-hosted installation, e.g. /api/v3'))
    .option('max-requests', integerOption('max-requests', 'a positive integer', 'Stop (exit 4) before sending more requests than this', { min: 1 }, 5000))
    .option('timeout', numberOption('timeout', SECONDS, 'Seconds the target may stay silent, before an answer or within it', POSITIVE, 15))
    .option('total-timeout', numberOption('total-timeout', SECONDS, 'Seconds for each whole answer, body included', POSITIVE, TOTAL_TIMEOUT_MS / 1000))
    .option('max-body', maxBodyOption('Largest answer body read, in MB; a larger one fails the check'))
    .option('max-wait', numberOption('max-wait', 'a number of seconds, 0 or more', 'Longest wait in seconds the target may ask for (X-Poll-Interval, Retry-After, a rate-limit reset); a check asked to wait longer is skipped', { min: 0 }, DEFAULT_MAX_WAIT_S))
    .option('max-total-wait', numberOption('max-total-wait', 'a number of seconds, 0 or more', 'Seconds the run may wait in all at the target\'s request; once spent, checks asked to wait are skipped', { min: 0 }, DEFAULT_MAX_TOTAL_WAIT_S))
    .option('list', { type: 'boolean', default: false, describe: 'Print the checks that would run, without sending a request' })
    .option('only-failed', { type: 'string', describe: 'Rerun only the failures recorded in an earlier report.json' })
    .option('transcripts', { choices: TRANSCRIPT_SCOPES, default: 'failing' as const, describe: 'Exchanges kept in report.json and report.html: those of failing and warning checks, bodies cut (failing), or every one whole (all)' })
    .option('verbose', { type: 'boolean', default: false, describe: 'A line for every check as it finishes (by default passes and skips are only counted per suite)' })
    .option('quiet', { type: 'boolean', default: false, describe: 'No lines while the run goes on (waits, --verbose)' });
}

export type RunArgs = Awaited<ReturnType<typeof runOptions>['argv']>;
