/** The flags of a run's end, shared by `conformance` and `conformance merge`: parsing them loads none of the reports. */
import type { Argv } from 'yargs';
import type { FailOn } from '../../reports/gate.js';
import { choiceOption } from './values.js';

/** The flags that decide where the reports go and what fails the gate. */
export function verdictOptions<T>(y: Argv<T>) {
  return y
    .option('report-dir', { type: 'string', default: 'conformance-report', describe: 'Directory for report.json, summary.md, junit.xml and report.html' })
    .option('baseline', { type: 'string', describe: 'An earlier report.json: mark checks newly failing, newly passing or unchanged' })
    .option('fail-on', choiceOption('fail-on', ['any', 'new'] as const, 'Exit 1 on any unexpected failure, or only on failures new since --baseline', 'any'))
    .option('expectations', { type: 'string', describe: 'JSON {"expected-failures": {"<check id>": "<reason>"}} of known failures' });
}

export interface VerdictArgs {
  'report-dir': string;
  baseline?: string;
  'fail-on': FailOn;
  expectations?: string;
}
