/**
 * Messages the spec quotes, compared as precisely as the spec can mean them: the same words in
 * other letter case are a warning (GitHub itself answers "Validation Failed" where document 1
 * quotes 'Validation failed'); other words, or no message, are a failure.
 */
export type Wording = 'same' | 'other-case' | 'different';

export function wordingOf(actual: unknown, quoted: string): Wording {
  if (actual === quoted) return 'same';
  return typeof actual === 'string' && actual.toLowerCase() === quoted.toLowerCase() ? 'other-case' : 'different';
}

/** Records the comparison of `actual` with the quoted message on a check: nothing, a warning or a failure. */
export function judgeQuotedMessage(t: { fail(m: string): void; warn(m: string): void }, what: string, actual: unknown, quoted: string): void {
  const wording = wordingOf(actual, quoted);
  if (wording === 'other-case') t.warn(`${what}: message is ${JSON.stringify(actual)}, '${quoted}' in other letter case`);
  else if (wording === 'different') t.fail(`${what}: message is ${JSON.stringify(actual)}, not '${quoted}'`);
}
