/** Stable placeholders for credentials (`token#1`), so different callers match differently without their secrets being stored. */
import { randomBytes, scryptSync } from 'node:crypto';

/** Per-cassette salt and the placeholders handed out, by salted digest of the secret (never the secret). */
export interface IdentityTable {
  salt: string;
  placeholders: Record<string, string>;
}

export function freshIdentityTable(): IdentityTable {
  return { salt: randomBytes(16).toString('hex'), placeholders: {} };
}

/** Hands out `token#N` per distinct secret. scrypt rather than a fast hash: a weak password in a Basic credential is not cheap to guess from the table. */
export class Identities {
  private readonly cache = new Map<string, string>();

  constructor(private readonly table: IdentityTable, private readonly onAdd: () => void = () => {}) {}

  placeholder(secret: string): string {
    const cached = this.cache.get(secret);
    if (cached) return cached;
    const digest = scryptSync(secret, this.table.salt, 32, { N: 1 << 14 }).toString('hex');
    let placeholder = this.table.placeholders[digest];
    if (!placeholder) {
      placeholder = `token#${Object.keys(this.table.placeholders).length + 1}`;
      this.table.placeholders[digest] = placeholder;
      this.onAdd();
    }
    this.cache.set(secret, placeholder);
    return placeholder;
  }
}
