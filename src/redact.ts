/** Secrets never reach a transcript, a report or a log: values known to be secret, and fields named as such. */
export const SECRET_FIELDS = ['vcs_password', 'vcs_username', 'password', 'client_secret', 'private_key', 'access_token', 'token'];
export const SECRET_HEADERS = ['authorization', 'cookie', 'set-cookie', 'proxy-authorization'];
export const MASK = '[REDACTED]';
/** Shorter secrets are not removed from free text: they would mangle unrelated words. */
export const MIN_SECRET_LENGTH = 4;

export class Redactor {
  private readonly secrets: string[];

  constructor(secrets: readonly string[], private readonly fields: readonly string[] = SECRET_FIELDS) {
    // Longest first, so a secret containing another is masked whole.
    this.secrets = [...new Set(secrets.filter((s) => s.length >= MIN_SECRET_LENGTH))].sort((a, b) => b.length - a.length);
  }

  text(value: string): string {
    let out = value;
    for (const s of this.secrets) out = out.split(s).join(MASK);
    return out;
  }

  headers(headers: Record<string, string>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(headers)) {
      if (SECRET_HEADERS.includes(k.toLowerCase())) {
        const scheme = /^(\w+)\s/.exec(v)?.[1];
        out[k] = scheme ? `${scheme} ${MASK}` : MASK;
      } else out[k] = this.text(v);
    }
    return out;
  }

  /** Deep copy with secret fields masked and secret values removed from strings. */
  json(value: unknown): unknown {
    if (typeof value === 'string') return this.text(value);
    if (Array.isArray(value)) return value.map((v) => this.json(v));
    if (value && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) out[k] = this.fields.includes(k) && v !== null ? MASK : this.json(v);
      return out;
    }
    return value;
  }
}
