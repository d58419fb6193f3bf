/**
 * The schemas' validators, compiled once at build time (`npm run build` runs scripts/validators.ts)
 * into one module of plain functions: a process grades and reads profiles without loading the
 * schema compiler, which took a third of a second of every run's CPU. The module names the
 * schemas it was made from (a hash of their files), so one made before a schema changed is refused
 * with a line saying how to remake it, rather than grading by the old schema.
 */
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { EXIT, UserError } from './exit-codes.js';
import { packagePath } from './paths.js';

/** Where the build writes the module (inside dist/, so the package ships it). */
export const VALIDATORS_FILE = packagePath('dist', 'core', 'validators.cjs');

/** What the module exports. */
export interface CompiledValidators {
  /** Of the schema files in schemas/, as schemasHash() computes it when the module was made. */
  hash: string;
  /** The resource validators, by validatorKey(). They note absent listed fields in `this.absent` (call them with a sink). */
  resources: Record<string, ValidateFunction>;
  /** The profile schema's validator (first error only). */
  profile: ValidateFunction;
}

/** A resource validator's name in the module: of an item or of a list of them, graded as stated or strictly. */
export function validatorKey(name: string, list: boolean, strict: boolean): string {
  return `${name}|${list ? 'list' : 'item'}|${strict ? 'strict' : 'stated'}`;
}

/** The schema files the module is made from, by name, as their text. */
export function schemaFiles(): Map<string, string> {
  const files = new Map<string, string>();
  for (const file of readdirSync(packagePath('schemas')).filter((f) => f.endsWith('.schema.json')).sort()) {
    files.set(file, readFileSync(packagePath('schemas', file), 'utf8'));
  }
  return files;
}

export function schemasHash(files: Map<string, string> = schemaFiles()): string {
  const hash = createHash('sha256');
  for (const [file, text] of files) hash.update(`${file}\u0000${text}\u0000`);
  return hash.digest('hex');
}

let loaded: CompiledValidators | undefined;

/** The module, loaded on first use; refused when missing or made from other schemas than those in schemas/. */
export function compiledValidators(): CompiledValidators {
  if (loaded) return loaded;
  let module: CompiledValidators;
  try {
    module = createRequire(import.meta.url)(VALIDATORS_FILE) as CompiledValidators;
  } catch (err) {
    throw new UserError(`the compiled schema validators (${VALIDATORS_FILE}) could not be loaded (${(err as Error).message.split('\n')[0]}): run npm run build`, EXIT.usage);
  }
  if (module.hash !== schemasHash()) {
    throw new UserError(`the compiled schema validators (${VALIDATORS_FILE}) were made from other schemas than those in schemas/: run npm run build`, EXIT.usage);
  }
  loaded = module;
  return loaded;
}
