/** `conformance validate RESOURCE FILE`: grade a saved JSON document against a resource schema. */
import { readFileSync } from 'node:fs';
import type { Argv } from 'yargs';
import { EXIT, UserError } from '../../core/exit-codes.js';
import { schemaNames, validateDocument } from '../../core/schemas.js';

export function validateOptions(y: Argv) {
  return y
    .positional('resource', { type: 'string', demandOption: true, describe: `One of: ${schemaNames().join(', ')}` })
    .positional('file', { type: 'string', demandOption: true, describe: 'JSON file holding one resource or an array of them' })
    .option('strict', { type: 'boolean', default: false, describe: 'Also report fields the spec does not describe (as information)' });
}

type Args = Awaited<ReturnType<typeof validateOptions>['argv']>;

export function validateCommand(args: Args): void {
  let text: string;
  try {
    text = readFileSync(args.file, 'utf8');
  } catch (err) {
    throw new UserError(`${args.file}: cannot read (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  const g = validateDocument(args.resource, text, args.file, args.strict);
  for (const [label, list] of [['FAIL', g.failures], ['WARN', g.warnings], ['INFO', g.infos]] as const) {
    for (const f of list) process.stdout.write(`${label} ${f.path}: ${f.message}\n`);
  }
  process.stdout.write(`${args.file}: ${g.failures.length} failures, ${g.warnings.length} warnings, ${g.infos.length} information\n`);
  process.exitCode = g.failures.length ? EXIT.checkFailed : EXIT.ok;
}
