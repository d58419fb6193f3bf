/** The reference's git object names: SHA-1 as git computes it, the same however often asked and past its memory's bound. */
import { describe, expect, it } from 'vitest';
import { sha1 } from '../../reference/sha1.js';

// `printf 'hello\n' | git hash-object --stdin`
const HELLO_BLOB = 'ce013625030ba8dba906f756967f9e9ca394464a';
// `git hash-object` of a file of 10,000 "x", then of the same with a "y" after: texts too long to remember.
const LARGE = 'x'.repeat(10_000);
const LARGE_BLOB = 'f2776bdd898efa83318efbab7e2b183836ab69ea';
const LARGER_BLOB = 'f52ad4518066c5a60cd9087be88455964ba985f6';

describe('sha1', () => {
  it('names a blob as git does, again when asked again', () => {
    expect(sha1('blob 6\0hello\n')).toBe(HELLO_BLOB);
    expect(sha1('blob 6\0hello\n')).toBe(HELLO_BLOB);
  });

  it('still answers right after more texts than it remembers, and for a text longer than it keeps', () => {
    for (let i = 0; i < 60_000; i++) sha1(`tree:acme/widgets:${i}`);
    expect(sha1('blob 6\0hello\n')).toBe(HELLO_BLOB);
    for (const round of [1, 2]) {
      expect(sha1(`blob 10000\0${LARGE}`), `round ${round}`).toBe(LARGE_BLOB);
      expect(sha1(`blob 10001\0${LARGE}y`), `round ${round}`).toBe(LARGER_BLOB);
    }
  });
});
