/** `conformance openapi`: the OpenAPI 3.1 description of both spec documents, as JSON on stdout. */
import type { Argv } from 'yargs';
import { vendorNames } from '../../spec/vendor.js';
import { readPackageJson } from '../../core/paths.js';
import { buildOpenApi } from '../openapi/document.js';
import { EXAMPLE_ORIGIN, referenceExamples } from '../openapi/examples.js';
import { vendorOption } from './values.js';

export function openapiOptions(y: Argv) {
  return y.option('vendor', vendorOption('Vendor word in header and media-type names', 'service'));
}

type Args = Awaited<ReturnType<typeof openapiOptions>['argv']>;

export async function openapiCommand(args: Args): Promise<void> {
  const document = buildOpenApi({
    version: readPackageJson<{ version: string }>('package.json').version,
    names: vendorNames(args.vendor),
    origin: EXAMPLE_ORIGIN,
    examples: await referenceExamples(),
  });
  process.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
}
