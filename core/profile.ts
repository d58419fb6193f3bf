/**
 * The target profile: how to reach and exercise one implementation. Loaded from JSON, checked
 * against schemas/profile.schema.json, with `env:NAME` token values resolved from the environment.
 */
import { readFileSync } from 'node:fs';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { compiledValidators } from './validators.js';
import { EXIT, UserError } from './exit-codes.js';
import type { TokenKind } from '../spec/tokens.js';

export type TokenName =
  | 'classic' | 'classic_public' | 'classic_bare' | 'org_member' | 'security_manager' | 'fine_grained' | 'fine_grained_bare' | 'app_user' | 'app_installation' | 'invalid' | 'sso_unauthorized' | 'oauth';

/** Profile tokens of a kind other than the personal access token (classic): those "Notification endpoints accept only a classic personal access token" refuses. */
export const NOT_CLASSIC_TOKENS = ['fine_grained', 'app_user', 'app_installation'] as const satisfies readonly TokenName[];

export interface ProfileToken {
  value: string;
  kind?: TokenKind;
  login?: string;
  scopes?: string[];
  permissions?: Record<string, 'read' | 'write' | 'admin'>;
}

export interface ProfileResources {
  public_repo?: string;
  private_repo?: string;
  workflow_repo?: string;
  import_repo?: string;
  archived_repo?: string;
  no_advanced_security_repo?: string;
  moved_network?: { from: string; to: string };
  org?: string;
  sso_org?: string;
  alert_numbers?: number[];
  thread_ids?: string[];
  label_repository_id?: number;
  usernames?: string[];
  search_keyword?: string;
  off_default_branch_keyword?: string;
  large_file_keyword?: string;
  alert_ref?: string;
  import_urls?: Record<string, string>;
}

export interface Profile {
  base_url: string;
  prefix?: string;
  vendor?: string;
  tokens?: Partial<Record<TokenName, ProfileToken>>;
  lockout_user?: { login: string; token: string; password?: string };
  password_user?: { login: string; password: string };
  /** An OAuth app's client ID and secret, sent as Basic credentials. */
  app_client?: { client_id: string; client_secret: string };
  resources?: ProfileResources;
}

/**
 * Checks a parsed profile and resolves `env:NAME` values. `source` names it in errors; `baseUrl`, when
 * given (--base-url), stands in for a missing base_url.
 */
export function parseProfile(data: unknown, source: string, env: NodeJS.ProcessEnv = process.env, baseUrl?: string): Profile {
  // Loaded on the first profile read: a run against the built-in reference never loads it.
  const validate = compiledValidators().profile as ValidateFunction<Profile>;
  const given = baseUrl !== undefined && isObject(data) && !('base_url' in data) ? { ...data, base_url: baseUrl } : data;
  if (!validate(given)) throw new UserError(`profile ${source}: ${schemaError(validate.errors?.[0])}`, EXIT.usage);
  const profile = structuredClone(given);
  const resolve = (value: string, where: string): string => {
    if (!value.startsWith('env:')) return value;
    const name = value.slice(4);
    const resolved = env[name];
    if (!resolved) throw new UserError(`profile ${source}: ${where} names environment variable ${name}, which is not set`, EXIT.usage);
    return resolved;
  };
  // Tokens go into the Authorization header as they are (Basic pairs are base64-encoded): a line
  // break there is the profile's fault, not the target's, and must never reach the wire.
  const headerValue = (value: string, where: string): string => {
    const resolved = resolve(value, where);
    if (!HEADER_VALUE.test(resolved)) throw new UserError(`profile ${source}: ${where} holds a character not allowed in an HTTP header value (e.g. a line break)`, EXIT.usage);
    return resolved;
  };
  for (const [name, token] of Object.entries(profile.tokens ?? {})) token.value = headerValue(token.value, `tokens.${name}.value`);
  if (profile.lockout_user) profile.lockout_user.token = headerValue(profile.lockout_user.token, 'lockout_user.token');
  if (profile.lockout_user?.password) profile.lockout_user.password = resolve(profile.lockout_user.password, 'lockout_user.password');
  if (profile.password_user) profile.password_user.password = resolve(profile.password_user.password, 'password_user.password');
  if (profile.app_client) profile.app_client.client_secret = resolve(profile.app_client.client_secret, 'app_client.client_secret');
  return profile;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The schema's patterns in words. */
const PATTERN_WORDS: Record<string, string> = {
  '^https?://': 'an http(s) URL',
  '^(/[A-Za-z0-9._~-]+)*$': 'a path such as /api/v3',
  '^[a-z][a-z0-9-]*$': 'a lowercase word such as service or github',
  '^[^/\\s]+/[^/\\s]+$': 'a repository as owner/name',
};

const ARTICLE: Record<string, string> = { string: 'a string', integer: 'an integer', number: 'a number', boolean: 'true or false', object: 'an object', array: 'an array', null: 'null' };

/** An ajv error as one plain sentence: "tokens.classic.value must be a string". */
function schemaError(e: ErrorObject | undefined): string {
  if (!e) return 'not a valid profile';
  const path = e.instancePath.slice(1).split('/').filter(Boolean).map((k, i) => (/^\d+$/.test(k) ? `[${k}]` : i ? `.${k}` : k)).join('');
  const at = (key: string) => (path ? `${path}.${key}` : key);
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'required': return `${at(String(p.missingProperty))} is missing${!path && p.missingProperty === 'base_url' ? ' (or pass --base-url)' : ''}`;
    case 'additionalProperties': return `${at(String(p.additionalProperty))} is not a profile key (docs/profile.md)`;
    case 'type': return `${path || 'the top level'} must be ${String(p.type).split(',').map((t) => ARTICLE[t] ?? t).join(' or ')}`;
    case 'enum': return `${path} must be one of ${(p.allowedValues as unknown[]).join(', ')}`;
    case 'pattern': return `${path} must be ${PATTERN_WORDS[String(p.pattern)] ?? `text matching ${String(p.pattern)}`}`;
    case 'minLength': return `${path} must not be empty`;
    case 'minimum': return `${path} must be ${String(p.limit)} or more`;
    default: return `${path || 'the top level'} ${e.message ?? 'is not valid'}`;
  }
}

/** What an HTTP header value may hold (RFC 9110 field-value): no control character but the tab, nothing past Latin-1. */
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

export function loadProfile(path: string, env: NodeJS.ProcessEnv = process.env, baseUrl?: string): Profile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new UserError(`profile ${path}: cannot read (${(err as NodeJS.ErrnoException).code ?? 'error'})`, EXIT.usage);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new UserError(`profile ${path}: not valid JSON (${(err as Error).message})`, EXIT.usage);
  }
  return parseProfile(data, path, env, baseUrl);
}

/** Every secret a profile holds, for redaction of transcripts and reports. */
export function profileSecrets(profile: Profile): string[] {
  const out = Object.values(profile.tokens ?? {}).map((t) => t.value);
  if (profile.lockout_user) out.push(profile.lockout_user.token, profile.lockout_user.password ?? '');
  if (profile.password_user) out.push(profile.password_user.password);
  if (profile.app_client) out.push(profile.app_client.client_secret);
  return out.filter((v) => v.length > 0);
}
