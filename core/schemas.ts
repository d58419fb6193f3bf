/**
 * The resource schemas in schemas/, and the grader that applies them as precisely as the spec
 * states: a wrong type, another timestamp form, a value outside an enum, or a field absent where
 * the spec states it present (the schemas' `required`) fails; `null` where the spec does not
 * state nullability is only a warning; a listed field that is absent is information, since
 * requiredness is not shown; in strict mode, fields the spec does not describe are information.
 */
import type { ErrorObject } from 'ajv/dist/2020.js';
import { EXIT, UserError } from './exit-codes.js';
import { compiledValidators, schemaFiles, validatorKey } from './validators.js';

export interface Finding {
  /** JSON pointer into the graded value. */
  path: string;
  message: string;
}

export interface Grade {
  failures: Finding[];
  warnings: Finding[];
  infos: Finding[];
}

/** Schemas that describe files, not API resources. */
const NOT_RESOURCES = new Set(['common', 'profile', 'report', 'har']);

type Schema = Record<string, unknown>;

function loadSchemas(): Map<string, Schema> {
  const out = new Map<string, Schema>();
  for (const [file, text] of schemaFiles()) out.set(file.replace('.schema.json', ''), JSON.parse(text) as Schema);
  return out;
}

const SCHEMAS = loadSchemas();

export function schemaNames(): string[] {
  return [...SCHEMAS.keys()].filter((n) => !NOT_RESOURCES.has(n));
}

export function schemaOf(name: string): Schema | undefined {
  return SCHEMAS.get(name);
}

function valueAt(root: unknown, pointer: string): unknown {
  let node = root;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    node = node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined;
  }
  return node;
}

const show = (v: unknown) => {
  const s = JSON.stringify(v);
  return s === undefined ? 'nothing' : s.length > 60 ? `${s.slice(0, 57)}...` : s;
};

function describe(e: ErrorObject, value: unknown): string {
  switch (e.keyword) {
    case 'required':
      return `field "${(e.params as { missingProperty: string }).missingProperty}" absent where the spec states it present`;
    case 'false schema':
      return 'field present where the spec states it absent';
    case 'type':
      return `expected ${String((e.params as { type: string | string[] }).type).replace(',', ' or ')}, got ${value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value} ${show(value)}`;
    case 'pattern':
      return (e.params as { pattern: string }).pattern.includes('T[0-9]{2}:')
        ? `expected a timestamp of the form YYYY-MM-DDTHH:MM:SSZ, got ${show(value)}`
        : `does not match ${(e.params as { pattern: string }).pattern}: ${show(value)}`;
    case 'enum':
      return `expected one of ${(e.params as { allowedValues: unknown[] }).allowedValues.map(show).join(', ')}, got ${show(value)}`;
    default:
      return `${e.message ?? e.keyword}${value !== undefined ? ` (got ${show(value)})` : ''}`;
  }
}

/** Grades a value (or, with `list`, an array of values) against the named resource schema. */
export function grade(name: string, value: unknown, opts: { list?: boolean; strict?: boolean } = {}): Grade {
  if (!SCHEMAS.has(name)) throw new Error(`unknown schema "${name}" (known: ${schemaNames().join(', ')})`);
  const grade: Grade = { failures: [], warnings: [], infos: [] };
  const seen = new Set<string>();
  const add = (list: Finding[], path: string, message: string) => {
    const key = `${path}\u0000${message}`;
    if (seen.has(key)) return;
    seen.add(key);
    list.push({ path, message });
  };
  const validate = compiledValidators().resources[validatorKey(name, opts.list ?? false, opts.strict ?? false)]!;
  // The validators note each absent listed field here (scripts/validators.ts).
  const sink = { absent: [] as [path: string, field: string][] };
  validate.call(sink, value);
  for (const [path, field] of sink.absent) add(grade.infos, `${path}/${field}`, `field "${field}" absent (requiredness not shown)`);
  for (const e of validate.errors ?? []) {
    // if/then and anyOf wrappers only repeat what their branches already said.
    if (e.keyword === 'if' || e.keyword === 'anyOf') continue;
    const at = e.instancePath || '/';
    const v = valueAt(value, e.instancePath);
    if (e.keyword === 'unevaluatedProperties') {
      const extra = (e.params as { unevaluatedProperty: string }).unevaluatedProperty;
      add(grade.infos, `${e.instancePath}/${extra}`, `field "${extra}" is not described by the spec`);
    } else if (e.keyword === 'type' && v === null) {
      add(grade.warnings, at, 'null where the spec does not state the field nullable (nullability not shown)');
    } else {
      add(grade.failures, at, describe(e, v));
    }
  }
  // A null that failed a type check also fails the sibling keywords (enum, pattern) of that field: one warning says it.
  const nullPaths = new Set(grade.warnings.map((w) => w.path));
  grade.failures = grade.failures.filter((f) => !(nullPaths.has(f.path) && valueAt(value, f.path === '/' ? '' : f.path) === null));
  return grade;
}

/** For `conformance validate RESOURCE FILE`: a single resource or an array of them. */
export function validateDocument(name: string, text: string, source: string, strict = false): Grade {
  if (!schemaNames().includes(name)) throw new UserError(`unknown resource "${name}" (known: ${schemaNames().join(', ')})`, EXIT.usage);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new UserError(`${source}: not valid JSON (${(err as Error).message})`, EXIT.usage);
  }
  const isList = Array.isArray(value) && (schemaOf(name)?.type !== 'array');
  return grade(name, value, { list: isList, strict });
}
