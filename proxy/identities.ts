/**
 * Stable placeholders for credentials (`token#1`), so different callers match differently without
 * their secrets being stored: the table keeps a digest of each secret, keyed with the cassette's salt.
 *
 * Tokens are digested with HMAC-SHA256: they are long random strings, so a fast keyed digest gives
 * a reader of the table nothing to guess from, and it costs microseconds on the request path.
 * Passwords are the weak case: a `user:password` pair (a Basic credential) keeps scrypt, which makes
 * each guess costly; it runs on the thread pool (`settled`), never blocking the event loop.
 */
import { createHmac, randomBytes, scrypt, scryptSync } from 'node:crypto';

/** The digest of cassettes recorded since it was named; a table without one used scrypt for every secret. */
export const DIGEST = 'hmac-sha256';

/** Per-cassette salt and the placeholders handed out, by salted digest of the secret (never the secret). */
export interface IdentityTable {
  salt: string;
  /** `hmac-sha256`: HMAC for tokens, scrypt for `user:password` pairs; absent (older cassettes): scrypt for all. */
  digest?: typeof DIGEST;
  placeholders: Record<string, string>;
}

export function freshIdentityTable(): IdentityTable {
  return { salt: randomBytes(16).toString('hex'), digest: DIGEST, placeholders: {} };
}

const SCRYPT = { N: 1 << 14 };
const SCRYPT_BYTES = 32;
/** Secrets remembered in memory (by HMAC, never the secret); past it, the least recently used is digested again. */
export const CACHE_LIMIT = 10_000;
/** Redaction passes `settled` makes at most: the second finds the digests the first waited for. */
const PASSES = 3;
/** Stands in for a placeholder while its digest is computed; the pass that saw it is discarded. */
const PENDING = 'token#?';

/**
 * Hands out `token#N` per distinct secret. With `onAdd` (a recording) new placeholders join the table,
 * which the caller saves; without it (replay, passthrough) a new secret's placeholder stays in
 * the bounded cache, so unknown credentials cannot grow the table.
 */
export class Identities {
  /** Placeholder by HMAC of the secret, least recently used first. */
  private readonly cache = new Map<string, string>();
  /** scrypt digests on the thread pool, by HMAC of their secret. */
  private readonly slow = new Map<string, Promise<void>>();
  /** Digests the current `settled` pass waits for; outside one, scrypt runs in place (tools off the request path). */
  private waiting: Promise<void>[] | undefined;
  private handedOut: number;
  /** The table's placeholders: each names its secret for good (one outside it is numbered anew once forgotten). */
  private readonly kept: Set<string>;

  constructor(private readonly table: IdentityTable, private readonly onAdd?: () => void) {
    this.handedOut = Object.keys(table.placeholders).length;
    this.kept = new Set(Object.values(table.placeholders));
  }

  /** Whether `placeholder` names the same secret for the rest of the run. */
  lasting(placeholder: string): boolean {
    return this.kept.has(placeholder);
  }

  placeholder(secret: string): string {
    const id = createHmac('sha256', this.table.salt).update(secret).digest('hex');
    const known = this.cache.get(id);
    if (known !== undefined) return this.remember(id, known);
    if (this.table.digest === DIGEST && !secret.includes(':')) return this.assign(id, id);
    if (!this.waiting) return this.assign(id, scryptSync(secret, this.table.salt, SCRYPT_BYTES, SCRYPT).toString('hex'));
    this.waiting.push(this.digestLater(id, secret));
    return PENDING;
  }

  /** Runs a redaction without blocking the event loop: when a secret needs scrypt, it is digested on the thread pool and the redaction run again. */
  async settled<T>(redact: () => T): Promise<T> {
    for (let pass = 0; pass < PASSES; pass++) {
      const waiting: Promise<void>[] = [];
      this.waiting = waiting;
      let out: T;
      try {
        out = redact();
      } finally {
        this.waiting = undefined;
      }
      if (!waiting.length) return out;
      await Promise.all(waiting);
    }
    throw new Error(`credential digests did not settle in ${PASSES} passes`);
  }

  private digestLater(id: string, secret: string): Promise<void> {
    let pending = this.slow.get(id);
    if (!pending) {
      pending = new Promise<void>((resolve, reject) => {
        scrypt(secret, this.table.salt, SCRYPT_BYTES, SCRYPT, (err, key) => {
          this.slow.delete(id);
          if (err) return reject(err);
          this.assign(id, key.toString('hex'));
          resolve();
        });
      });
      this.slow.set(id, pending);
    }
    return pending;
  }

  private assign(id: string, digest: string): string {
    let placeholder = this.table.placeholders[digest];
    if (placeholder === undefined) {
      placeholder = `token#${++this.handedOut}`;
      if (this.onAdd) {
        this.table.placeholders[digest] = placeholder;
        this.kept.add(placeholder);
        this.onAdd();
      }
    }
    return this.remember(id, placeholder);
  }

  private remember(id: string, placeholder: string): string {
    this.cache.delete(id);
    this.cache.set(id, placeholder);
    if (this.cache.size > CACHE_LIMIT) this.cache.delete(this.cache.keys().next().value!);
    return placeholder;
  }
}
