/**
 * The one redactor for everything that leaves the process: transcripts, reports, console lines,
 * fixtures and HAR. It masks secret JSON fields, form pairs, query parameters and headers by name,
 * private keys and URL userinfo by pattern, and every secret value it knows (given up front, sent
 * as a credential, or met under a secret name) in any encoding (see secrets.ts). The suite's client
 * uses it as it is; the proxy (proxy/redact.ts) puts credential placeholders on top.
 */
import { headerSecrets, parseCredential, userPassword } from './credentials.js';
import { MAX_JSON_DEPTH } from '../bounds.js';
import { MASK, MIN_LEARNED_LENGTH, PEM, PEM_MASK, SecretNames, TOKEN_SHAPE, USERINFO, type RedactionRules } from './rules.js';
import { Secrets } from './secrets.js';
import { decode, mapJson, maskForm, maskPairs, someField, someText } from './walk.js';

/** Headers carrying `Scheme credentials`: the scheme stays readable (Bearer or Basic matters to a reader). */
const CREDENTIAL_HEADERS = ['authorization', 'proxy-authorization'];
const FORM = /^application\/x-www-form-urlencoded\b/i;
/** Texts remembered() keeps: short ones (URLs, names) repeat; a body's long text seldom does. */
const MAX_REMEMBERED_TEXT = 256;
const MAX_REMEMBERED_TEXTS = 20_000;
/** How deep `strings` walks a structure: its bodies were bounded already, so deeper than one body. */
const STRINGS_DEPTH = 2 * MAX_JSON_DEPTH;

export class Redactor {
  readonly names: SecretNames;
  private readonly secrets = new Secrets();
  /** remembered()'s answers, valid while the count of known secrets is `textsAt`. */
  private readonly texts = new Map<string, string>();
  private textsAt = 0;

  constructor(rules?: RedactionRules, known: readonly string[] = []) {
    this.names = new SecretNames(rules);
    for (const secret of known) this.learn(secret);
  }

  /** How many secret values it knows; it only grows. */
  get learned(): number {
    return this.secrets.size;
  }

  /**
   * Whether a structure `strings` would walk, redacted when `count` secrets were known, holds a form
   * of one learned since: its strings are searched as they are (not as JSON would escape them), and
   * nesting too deep to search counts as holding one.
   */
  heldSince(count: number, value: unknown): boolean {
    const since = this.secrets.addedSince(count);
    return since !== null && someText(value, (s) => since.test(s), STRINGS_DEPTH);
  }

  /** From now on `secret` (in any encoding) becomes `replacement` wherever it appears. */
  learn(secret: string, replacement: string = MASK, min?: number): void {
    this.secrets.add(secret, replacement, min);
  }

  /** Learns an Authorization value's secret (for Basic also the base64 text and the password) and returns the value masked, scheme kept. */
  credential(value: string, replacement: string = MASK): string {
    const { scheme, secret, parts } = parseCredential(value);
    for (const s of [secret, ...parts]) this.learn(s, replacement);
    return scheme ? `${scheme} ${replacement}` : replacement;
  }

  /** Headers with secret ones masked (their values learned first, so an echo in another header goes too). */
  headers(headers: Record<string, string>): Record<string, string> {
    const masked = new Map<string, string>();
    for (const [name, value] of Object.entries(headers)) if (this.names.header(name)) masked.set(name, this.header(name, value));
    return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, masked.get(name) ?? this.text(value)]));
  }

  /** One secret header's value, masked; its secret pieces are learned. */
  header(name: string, value: string): string {
    const lower = name.toLowerCase();
    if (CREDENTIAL_HEADERS.includes(lower)) return this.credential(value);
    for (const s of headerSecrets(lower, value)) this.learn(s, MASK, MIN_LEARNED_LENGTH);
    return MASK;
  }

  /** A deep copy with secret fields masked (their values learned first) and every string through `text`. */
  json(value: unknown): unknown {
    this.learnFields(value);
    return mapJson(value, (s) => this.remembered(s), (key) => this.names.field(key));
  }

  /** Learns the values of secret fields, so an echo of one elsewhere in the same document is masked too. */
  private learnFields(value: unknown): void {
    someField(value, (key, v) => {
      if (typeof v === 'string' && this.names.secretValue(key)) this.learn(v, MASK, MIN_LEARNED_LENGTH);
      return false;
    });
  }

  /** Whether a JSON value holds a secret field anywhere. */
  holdsField(value: unknown): boolean {
    return someField(value, (key) => this.names.field(key));
  }

  /** A body that is not JSON: a form's secret pairs masked whole, then the text rules. */
  body(text: string, contentType: string | undefined): string {
    const form = FORM.test(contentType ?? '') ? maskForm(text, (n) => this.names.pair(n), (v) => this.learn(v, MASK, MIN_LEARNED_LENGTH)) : text;
    return this.text(form);
  }

  /** Free text (a URL, a message, a header value): private keys, platform-shaped tokens, URL userinfo, secret query pairs, then every known secret. */
  text(value: string): string {
    let out = value.includes('-----BEGIN') ? value.replace(PEM, PEM_MASK) : value;
    // Learned as well, so its encoded forms elsewhere (base64 in a Basic header) are masked too.
    if (out.includes('_')) out = out.replace(TOKEN_SHAPE, (token) => {
      this.learn(token);
      return MASK;
    });
    // Userinfo needs both: most text (every *_url field) has no "@", and the pattern is costly to try.
    if (out.includes('://') && out.includes('@')) {
      out = out.replace(USERINFO, (_whole, scheme: string, userinfo: string) => {
        for (const s of [userinfo, ...userPassword(userinfo)]) {
          this.learn(s);
          this.learn(decode(s));
        }
        return scheme;
      });
    }
    return this.secrets.scrub(maskPairs(out, (n) => this.names.pair(n), (v) => this.learn(v, MASK, MIN_LEARNED_LENGTH)));
  }

  /** Every string of a structure (a whole report) through `text`; bodies in it were bounded already, so the depth allowed is larger. */
  strings<T>(value: T): T {
    return mapJson(value, (s) => this.remembered(s), () => false, STRINGS_DEPTH) as T;
  }

  /**
   * `text` for the strings of a walked structure: the answer for a short one is remembered while no
   * new secret is learned, as bodies and reports repeat the same URLs, logins and names thousands of times.
   */
  private remembered(value: string): string {
    if (value.length > MAX_REMEMBERED_TEXT) return this.text(value);
    if (this.textsAt !== this.secrets.size) {
      this.texts.clear();
      this.textsAt = this.secrets.size;
    }
    const known = this.texts.get(value);
    if (known !== undefined) return known;
    const out = this.text(value);
    if (this.textsAt === this.secrets.size) {
      if (this.texts.size >= MAX_REMEMBERED_TEXTS) this.texts.clear();
      this.texts.set(value, out);
    }
    return out;
  }
}
