/**
 * Known secrets leave text in every form a target may echo them in, whether the redactor knows a
 * few (each form looked for in turn) or many (one compiled pattern), and text holding none comes
 * back unchanged.
 */
import { describe, expect, it } from 'vitest';
import { Redactor } from '../../core/redact/redactor.js';

const secretOf = (n: number) => `s3cr3t-value-number-${n}-abcdefgh`;

/** How a target may echo `secret`, spelled out here rather than taken from the redactor. */
function echoes(secret: string): string[] {
  const base64 = Buffer.from(secret).toString('base64');
  return [
    `as sent: ${secret}.`,
    `percent-encoded: ${encodeURIComponent(secret)}`,
    `base64: ${base64}`,
    `inside longer base64: ${Buffer.from(`user:${secret}`).toString('base64')}`,
  ];
}

describe('known secrets', () => {
  for (const known of [1, 12]) {
    it(`are removed in every form with ${known} known, and text without one is left as it was`, () => {
      const redactor = new Redactor({ headers: [], fields: [] });
      for (let n = 0; n < known; n++) redactor.learn(secretOf(n));
      for (let n = 0; n < known; n++) {
        for (const text of echoes(secretOf(n))) {
          const out = redactor.text(text);
          expect(out, text).not.toContain(secretOf(n));
          expect(out, text).not.toContain(Buffer.from(secretOf(n)).toString('base64').slice(4, 24));
          expect(out, text).not.toBe(text);
        }
      }
      const plain = 'application/vnd.service+json; nothing secret here';
      expect(redactor.text(plain)).toBe(plain);
    });
  }
});
