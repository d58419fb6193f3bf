/** The reference's git object names: SHA-1 as git computes it, the same however often asked and past its memory's bound. */
import { describe, expect, it } from 'vitest';
import { sha1 } from '../../reference/sha1.js';

// `printf 'hello\n' | git hash-object --stdin`
const HELLO_BLOB = 'ce013625030ba8dba906f756967f9e9ca394464a';

describe('sha1', () => {
  it('names a blob as git does, again when asked again', () => {
    expect(sha1('blob 6\0hello\n')).toBe(HELLO_BLOB);
    expect(sha1('blob 6\0hello\n')).toBe(HELLO_BLOB);
  });

  it('still answers right after more texts than it remembers, and for a text longer than it keeps', () => {
    for (let i = 0; i < 60_000; i++) sha1(`tree:acme/widgets:${i}`);
    expect(sha1('blob 6\0hello\n')).toBe(HELLO_BLOB);
    const large = 'x'.repeat(10_000);
    expect(sha1(large)).toBe(sha1(large));
    expect(sha1(large)).toMatch(/^[0-9a-f]{40}$/);
    expect(sha1(large)).not.toBe(sha1(`${large}y`));
  });
});
