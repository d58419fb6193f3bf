/** Quoted messages: other letter case is a warning (GitHub answers "Validation Failed"), other words a failure. */
import { describe, expect, it } from 'vitest';
import { VALIDATION_FAILED } from '../spec/vocabulary.js';
import { judgeQuotedMessage, wordingOf } from '../core/wording.js';

const judged = (actual: unknown) => {
  const seen = { fail: [] as string[], warn: [] as string[] };
  judgeQuotedMessage({ fail: (m) => seen.fail.push(m), warn: (m) => seen.warn.push(m) }, 'GET /search/issues', actual, VALIDATION_FAILED);
  return seen;
};

describe('a message the spec quotes', () => {
  it('passes the quoted words', () => {
    expect(wordingOf('Validation failed', VALIDATION_FAILED)).toBe('same');
    expect(judged('Validation failed')).toEqual({ fail: [], warn: [] });
  });

  it('warns, without failing, on the same words in other letter case', () => {
    expect(judged('Validation Failed')).toEqual({ fail: [], warn: [`GET /search/issues: message is "Validation Failed", 'Validation failed' in other letter case`] });
    expect(wordingOf('VALIDATION FAILED', VALIDATION_FAILED)).toBe('other-case');
  });

  it('fails other words, a missing message and a non-string', () => {
    for (const actual of ['Validation failed.', 'Unprocessable Entity', undefined, 422]) {
      expect(wordingOf(actual, VALIDATION_FAILED), String(actual)).toBe('different');
      expect(judged(actual).fail, String(actual)).toHaveLength(1);
    }
  });
});
