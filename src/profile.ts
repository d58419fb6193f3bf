/**
 * The target profile: how to reach and exercise one implementation. Loaded from JSON, checked
 * against schemas/profile.schema.json, with `env:NAME` token values resolved from the environment.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { EXIT, UserError } from './exit-codes.js';
import { readPackageJson } from './paths.js';

export type TokenName =
  | 'classic' | 'classic_public' | 'classic_bare' | 'org_member' | 'security_manager' | 'fine_grained' | 'fine_grained_bare' | 'app_user' | 'app_installation' | 'invalid' | 'sso_unauthorized' | 'oauth';

/** Profile tokens of a kind other than the personal access token (classic): those "Notification endpoints accept only a classic personal access token" refuses. */
export const NOT_CLASSIC_TOKENS = ['fine_grained', 'app_user', 'app_installation'] as const satisfies readonly TokenName[];

export interface ProfileToken {
  value: string;
  kind?: 'classic' | 'fine-grained' | 'app-user' | 'app-installation' | 'oauth' | 'workflow';
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

let compiled: ValidateFunction<Profile> | undefined;

/** Compiled on the first profile read: a run against the built-in reference never compiles it. */
function profileValidator(): ValidateFunction<Profile> {
  if (compiled) return compiled;
  compiled = new Ajv2020({ allErrors: false, strict: true }).compile<Profile>(readPackageJson<object>('schemas', 'profile.schema.json'));
  return compiled;
}

/** Checks a parsed profile and resolves `env:NAME` values. `source` names it in errors. */
export function parseProfile(data: unknown, source: string, env: NodeJS.ProcessEnv = process.env): Profile {
  const validate = profileValidator();
  if (!validate(data)) {
    const e = validate.errors?.[0];
    const where = e?.instancePath ? e.instancePath.slice(1).replace(/\//g, '.') : '(top level)';
    const detail = e?.keyword === 'additionalProperties' ? `unknown key "${(e.params as { additionalProperty: string }).additionalProperty}"` : e?.message;
    throw new UserError(`profile ${source}: ${where}: ${detail}`, EXIT.usage);
  }
  const profile = structuredClone(data);
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

/** What an HTTP header value may hold (RFC 9110 field-value): no control character but the tab, nothing past Latin-1. */
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

export function loadProfile(path: string, env: NodeJS.ProcessEnv = process.env): Profile {
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
  return parseProfile(data, path, env);
}

/** Every secret a profile holds, for redaction of transcripts and reports. */
export function profileSecrets(profile: Profile): string[] {
  const out = Object.values(profile.tokens ?? {}).map((t) => t.value);
  if (profile.lockout_user) out.push(profile.lockout_user.token, profile.lockout_user.password ?? '');
  if (profile.password_user) out.push(profile.password_user.password);
  if (profile.app_client) out.push(profile.app_client.client_secret);
  return out.filter((v) => v.length > 0);
}
