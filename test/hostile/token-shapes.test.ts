/**
 * Tokens in the platform's own published shapes are secrets wherever they stand: the redactor masks
 * them under names that say nothing and in free text (and then their encoded forms), and no tracked
 * file of this repository holds one, for a secret scanner must find nothing here. The shapes are
 * built at run time, so this file holds none either.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../core/paths.js';
import { Redactor } from '../../core/redact/redactor.js';
import { MASK, TOKEN_SHAPE } from '../../core/redact/rules.js';

const body36 = 'Ab3'.repeat(12);
const SHAPED = [`ghp_${body36}`, `gho_${body36}`, `ghu_${body36}`, `ghs_${body36}`, `ghr_${body36}`, `github_pat_11AB_${'x9'.repeat(30)}`];
const shapedIn = (text: string) => text.match(TOKEN_SHAPE) ?? [];

describe('a platform-shaped token', () => {
  it.each(SHAPED)('%s is masked under a field name that says nothing and in free text', (token) => {
    const r = new Redactor();
    expect(r.json({ note: `created ${token} for ci`, id: 7 })).toEqual({ note: `created ${MASK} for ci`, id: 7 });
    expect(r.text(`see https://host/x?ref=${token}#a`)).toBe(`see https://host/x?ref=${MASK}#a`);
  });

  it('is learned: its base64 form elsewhere is masked too', () => {
    const r = new Redactor();
    r.text(`token ${SHAPED[0]}`);
    const basic = Buffer.from(`mona:${SHAPED[0]}`).toString('base64');
    expect(r.text(`Basic ${basic}`)).not.toContain(basic);
  });

  it('is the whole shape only: shorter bodies, other prefixes and words inside identifiers stay readable', () => {
    const r = new Redactor();
    for (const text of [`ghp_${body36.slice(1)}`, 'ghp_token', `ghx_${body36}`, `aghp_${body36}`, 'snake_case_field_name_that_is_long_enough_to_matter']) expect(r.text(text), text).toBe(text);
  });
});

describe('the repository', () => {
  it('tracks no file holding a platform-shaped token', () => {
    const files = execFileSync('git', ['ls-files', '-z'], { cwd: PACKAGE_ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }).split('\0').filter(Boolean);
    expect(files.length).toBeGreaterThan(100);
    const found = files.flatMap((f) => {
      const text = readFileSync(join(PACKAGE_ROOT, f), 'latin1');
      return shapedIn(text).map((token) => `${f}: ${token.slice(0, 8)}…`);
    });
    expect(found).toEqual([]);
  });

  it('would be caught holding one (the scan can fail)', () => {
    expect(shapedIn(`const SECRET = '${SHAPED[0]}';`)).toEqual([SHAPED[0]]);
  });
});
