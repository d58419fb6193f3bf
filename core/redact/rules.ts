/**
 * What redaction masks, as data: the names of secret fields, form pairs, query parameters and
 * headers, and the text patterns that are secret whatever their context.
 */
import { SESSION_HEADER } from '../protocol.js';

export const MASK = '[REDACTED]';
export const PEM_MASK = '[REDACTED PRIVATE KEY]';
/** Stands for JSON nested deeper than the walk's bound (core/bounds.ts): reports must still serialize a hostile body. */
export const TOO_DEEP = '[TOO DEEP]';
/** Shorter secrets are not removed from free text: they would mangle unrelated words. */
export const MIN_SECRET_LENGTH = 4;
/** Values taken as secret only because of their name (a field, a pair, a cookie): short ones ("none", "dark") would mangle the rest. */
export const MIN_LEARNED_LENGTH = 8;
/** Base64 fragments of shorter secrets are too common to mask without mangling unrelated text. */
export const MIN_ENCODED_LENGTH = 8;
/** Secrets one redactor remembers; past it, names and patterns still mask, new values are not learned. */
export const MAX_SECRETS = 1000;

/** Names compared without case and separators: `apiKey`, `api_key` and `API-KEY` are one name. */
function normalizeName(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** Field, form and query names (normalized) whose values are secrets: access_token, refresh_token, id_token, client_secret, apiKey… */
const SECRET_NAME = /(?:password|passwd|secret|token|apikey|privatekey)$/;
/** Masked where named, but not hunted elsewhere: a login also appears in paths and messages. */
const NAMED_ONLY = /^vcsusername$/;
/** OAuth's authorization code travels in forms and query strings; in JSON `code` names an error code, kept. */
const PAIR_ONLY_NAME = /^code$/;
/**
 * Header names with a secret value, by word: Authorization, Cookie, Set-Cookie, X-Api-Key,
 * Private-Token, X-Auth-Token… Whole words, so X-OAuth-Scopes and WWW-Authenticate stay readable.
 */
const SECRET_HEADER = /(?:^|[-_])(?:auth|authorization|token|secret|password|passwd|cookie|session|otp|credentials?)(?:[-_]|$)|(?:^|[-_])api[-_]?key(?:[-_]|$)/i;

/** A private key block, or what a cut left of one (no END line). */
export const PEM = /-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY-----(?:[\s\S]*?-----END [A-Z0-9 ]{0,40}PRIVATE KEY-----|[\s\S]*$)/g;
/**
 * A token in the platform's own published shapes (classic `ghp_`, OAuth `gho_`, user-to-server `ghu_`,
 * installation `ghs_`, refresh `ghr_`, fine-grained `github_pat_`): masked wherever it stands, also
 * under a field name that says nothing, and none may be committed to the repository.
 */
export const TOKEN_SHAPE = /\b(?:gh[pousr]_[A-Za-z0-9]{36,251}|github_pat_[A-Za-z0-9_]{22,244})\b/g;
/** The userinfo of a URL (`https://user:password@host`). */
export const USERINFO = /\b([a-z][a-z0-9+.-]{0,30}:\/\/)([^\s/?#@<>"']{1,1000})@/gi;
/** A `name=value` pair of a form or query string, or of a URL inside text. */
export const PAIR = /(^|[?&;\s])([^=&?#;\s"'<>]{1,100})=([^&#;,\s"'<>]*)/g;

/** Extra names from the command line (`--redact-field`, `--redact-header`), on top of the built-in ones. */
export interface RedactionRules {
  headers: readonly string[];
  fields: readonly string[];
}

/** What a name is, as bits: a masked field, a secret value wherever it appears, a secret pair. */
const FIELD_BIT = 1;
const SECRET_VALUE_BIT = 2;
const PAIR_BIT = 4;
/** Names remembered; every body repeats the same few hundred keys, and a hostile one cannot grow it past this. */
const MAX_NAMES = 10_000;

/** What each name is, per set of rules: shared by the redactors of those rules (the proxy makes one per request). */
const KINDS = new WeakMap<RedactionRules, Map<string, number>>();
const NO_RULES: RedactionRules = { headers: [], fields: [] };

export class SecretNames {
  private readonly fields: Set<string>;
  private readonly headers: Set<string>;
  private readonly kinds: Map<string, number>;

  constructor(extra: RedactionRules = NO_RULES) {
    this.fields = new Set(extra.fields.map(normalizeName));
    this.headers = new Set(extra.headers.map((h) => h.toLowerCase()));
    let kinds = KINDS.get(extra);
    if (!kinds) KINDS.set(extra, (kinds = new Map()));
    this.kinds = kinds;
  }

  /** A JSON field whose value is masked. */
  field(name: string): boolean {
    return (this.kind(name) & FIELD_BIT) !== 0;
  }

  /** A field whose value is a secret wherever else it appears (an echo), not only there. */
  secretValue(name: string): boolean {
    return (this.kind(name) & SECRET_VALUE_BIT) !== 0;
  }

  /** A form pair or query parameter whose value is secret. */
  pair(name: string): boolean {
    return (this.kind(name) & PAIR_BIT) !== 0;
  }

  private kind(name: string): number {
    let kind = this.kinds.get(name);
    if (kind !== undefined) return kind;
    const n = normalizeName(name);
    const secret = SECRET_NAME.test(n) || this.fields.has(n);
    const field = secret || NAMED_ONLY.test(n);
    kind = (field ? FIELD_BIT : 0) | (secret ? SECRET_VALUE_BIT : 0) | (field || PAIR_ONLY_NAME.test(n) ? PAIR_BIT : 0);
    if (this.kinds.size >= MAX_NAMES) this.kinds.clear();
    this.kinds.set(name, kind);
    return kind;
  }

  header(name: string): boolean {
    const lower = name.toLowerCase();
    // The run's own session id on a replaying proxy names a sequence, not a caller: kept readable.
    if (lower === SESSION_HEADER) return this.headers.has(lower);
    return SECRET_HEADER.test(name) || this.headers.has(lower);
  }
}
