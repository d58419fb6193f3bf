/**
 * `conformance undo <journal>`: performs the undo steps a run left outstanding (it was killed, or an
 * undo failed), newest first, with the tokens of the profile given, and says what could not be undone.
 */
import type { Argv } from 'yargs';
import { BUILTIN_PROFILE, referenceProfileAt } from '../../reference/profile.js';
import { vendorNames } from '../../spec/vendor.js';
import { Client } from '../../core/client.js';
import { EXIT, UserError } from '../../core/exit-codes.js';
import { Journal, undoRequest, type JournalState } from '../../core/journal.js';
import { loadProfile, profileSecrets, type Profile } from '../../core/profile.js';
import { urlOption } from './values.js';

/** Seconds to wait for each answer, as a run does by default. */
const TIMEOUT_MS = 15_000;

export function undoOptions(y: Argv) {
  return y
    .positional('journal', { type: 'string', demandOption: true, describe: 'The journal.jsonl a run left in its report directory' })
    .option('profile', { type: 'string', demandOption: true, describe: 'Profile whose tokens send the undo requests (the run\'s), or `reference` for the built-in reference\'s' })
    .option('base-url', urlOption('base-url', 'Send the undo requests here instead of to the base URL the journal records'));
}

type Args = Awaited<ReturnType<typeof undoOptions>['argv']>;

export async function undoCommand(args: Args): Promise<void> {
  let resumed: ReturnType<typeof Journal.resume>;
  try {
    resumed = Journal.resume(args.journal);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    throw new UserError(`journal ${args.journal}: ${e.code === 'ENOENT' ? 'no such file (nothing left to undo there)' : e.code ? `cannot read (${e.code})` : `not a journal (${e.message})`}`);
  }
  const { journal, state } = resumed;
  const clients = await clientsFor(state, args);
  await journal.unwind(async (step, run) => (await clients.get(run)!.send(undoRequest(step))).status);

  for (const change of journal.undone) process.stdout.write(`undone: ${change}\n`);
  for (const leak of journal.leaks) process.stdout.write(`not undone: ${leak.change} (${leak.reason})\n`);
  for (const leak of state.irreversible) process.stdout.write(`cannot be undone through the API: ${leak.change} (${leak.reason})\n`);
  const kept = journal.leaks.length ? `; ${args.journal} keeps the ${journal.leaks.length} not undone` : `; ${args.journal} removed`;
  process.stdout.write(`${journal.restored} of ${state.outstanding.length} changes undone${kept}\n`);
  if (journal.leaks.length || state.irreversible.length) process.exitCode = EXIT.notUndone;
}

/** One client per run the journal holds changes of: its target, with the profile's tokens. */
async function clientsFor(state: JournalState, args: Args): Promise<Map<string, Client>> {
  const clients = new Map<string, Client>();
  const runs = new Set(state.outstanding.map((e) => e.run));
  for (const run of runs) {
    const target = state.targets.get(run);
    if (!target) throw new UserError(`journal ${args.journal}: changes of run ${run} name no target (its "run" line is missing)`);
    const baseUrl = args['base-url'] ?? target.baseUrl;
    const given: Profile = args.profile === BUILTIN_PROFILE ? await referenceProfileAt(baseUrl, target.vendor) : loadProfile(args.profile, process.env, baseUrl);
    const profile: Profile = { ...given, base_url: baseUrl, prefix: target.prefix, vendor: target.vendor };
    // Each step may be sent twice (once more after a throttled answer).
    const maxRequests = 2 * state.outstanding.reduce((n, e) => n + e.undo.length, 0);
    const client = new Client({ profile, names: vendorNames(target.vendor), timeoutMs: TIMEOUT_MS, maxRequests }, profileSecrets(profile));
    client.accept = target.accept;
    client.scheme = target.scheme;
    clients.set(run, client);
  }
  return clients;
}
