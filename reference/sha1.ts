/**
 * The hex SHA-1 of a text: how the reference names commits, trees, blobs and refs, as git does.
 * Remembered, since every reference a process starts names the same objects: hashing them anew was
 * a tenth of a one-check run (a test file makes hundreds). Bounded in count and in key length.
 */
import { createHash } from 'node:crypto';

const MAX_NAMES = 50_000;
const MAX_REMEMBERED_TEXT = 4096;
const names = new Map<string, string>();

export function sha1(text: string): string {
  const known = names.get(text);
  if (known !== undefined) return known;
  const name = createHash('sha1').update(text).digest('hex');
  if (text.length <= MAX_REMEMBERED_TEXT) {
    if (names.size >= MAX_NAMES) names.clear();
    names.set(text, name);
  }
  return name;
}
