/**
 * Known secret values, removed from text in every form a target may echo them in: as sent,
 * percent- or form-encoded, and base64 (alone or inside a longer base64 text, in the standard and
 * the URL alphabet). A cut secret is not recognized: text is redacted before it is cut.
 */
import { MASK, MAX_SECRETS, MIN_ENCODED_LENGTH, MIN_SECRET_LENGTH, PEM_MASK, TOO_DEEP } from './rules.js';

/** Up to this many forms (a few secrets' encodings), looking for each is cheaper than one compiled pattern. */
const FEW_FORMS = 32;

interface Form {
  /** Escaped for a regex; ordered longest first, so a secret containing another is replaced whole. */
  source: string;
  length: number;
  replacement: string;
}

export class Secrets {
  private readonly known = new Set<string>();
  private readonly forms = new Map<string, Form>();
  /** The forms each secret added, in the order the secrets were learned. */
  private readonly added: string[][] = [];
  /** For addedSince, per count. */
  private readonly since = new Map<number, RegExp | null>();
  private pattern: RegExp | null | undefined;

  /** How many secrets are known: a text redacted when it was the same needs no second pass. */
  get size(): number {
    return this.known.size;
  }

  /** Remembers `secret`; a value that is itself a mask, or shorter than `min`, is not a secret. */
  add(secret: string, replacement: string = MASK, min: number = MIN_SECRET_LENGTH): void {
    if (secret.length < min || this.known.has(secret) || this.known.size >= MAX_SECRETS || isMasked(secret)) return;
    this.known.add(secret);
    const mine: string[] = [];
    this.added.push(mine);
    const literal = (text: string) => {
      if (text.length < min || this.forms.has(text)) return;
      this.forms.set(text, { source: escape(text), length: text.length, replacement });
      mine.push(text);
    };
    literal(secret);
    literal(encodeURIComponent(secret));
    literal(new URLSearchParams({ v: secret }).toString().slice(2));
    const bytes = Buffer.from(secret);
    literal(bytes.toString('base64'));
    if (secret.length >= MIN_ENCODED_LENGTH) {
      for (const core of base64Cores(bytes)) {
        literal(core);
        literal(core.replace(/\+/g, '-').replace(/\//g, '_'));
      }
    }
    this.pattern = undefined;
    this.since.clear();
  }

  /** A pattern finding any form of the secrets learned after the first `count`; null when none were. */
  addedSince(count: number): RegExp | null {
    let since = this.since.get(count);
    if (since === undefined) {
      const forms = this.added.slice(count).flat();
      since = forms.length ? new RegExp(forms.map(escape).join('|')) : null;
      this.since.set(count, since);
    }
    return since;
  }

  scrub(text: string): string {
    // Most texts hold no secret: a search per form finds that without compiling the alternation,
    // which a redactor made per request (a new caller each time) would otherwise compile every time.
    if (this.forms.size <= FEW_FORMS && !this.occursIn(text)) return text;
    const pattern = this.compiled();
    if (!pattern) return text;
    // The match is one form's text exactly (the forms are literals): its replacement is looked up by it.
    return text.replace(pattern, (match: string) => this.forms.get(match)?.replacement ?? MASK);
  }

  private occursIn(text: string): boolean {
    for (const form of this.forms.keys()) if (text.includes(form)) return true;
    return false;
  }

  private compiled(): RegExp | null {
    if (this.pattern !== undefined) return this.pattern;
    // No capture group per form: hundreds of groups make every position of every text costly to try.
    const forms = [...this.forms.values()].sort((a, b) => b.length - a.length);
    this.pattern = forms.length ? new RegExp(forms.map((f) => f.source).join('|'), 'g') : null;
    return this.pattern;
  }
}

/** Already redacted: a mask (or text carrying one) is never a secret to learn. */
function isMasked(value: string): boolean {
  return value.includes(MASK) || value.includes(PEM_MASK) || value.includes(TOO_DEEP);
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The base64 characters that depend on the secret's bytes alone, for each of the three alignments
 * it can have inside a longer encoded text (a Basic credential `user:secret`, a JSON document).
 */
function base64Cores(bytes: Buffer): string[] {
  return [0, 1, 2].map((offset) => {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
    return encoded.slice(Math.ceil((offset * 8) / 6), Math.floor(((offset + bytes.length) * 8) / 6));
  });
}
