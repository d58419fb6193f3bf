/**
 * The schema compiler, loaded when a schema is first compiled: its modules are a tenth of a short
 * command's start (--list, faults, a refused flag), which never compiles one.
 */
import { createRequire } from 'node:module';
import type { Ajv2020, Options } from 'ajv/dist/2020.js';

const require = createRequire(import.meta.url);

export function createAjv(options: Options): Ajv2020 {
  const { Ajv2020: Ajv } = require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
  return new Ajv(options);
}
