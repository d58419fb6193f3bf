/** The cassette folder: whole files, an index that follows the files, one-line errors naming a bad fixture. */
import { existsSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Cassette, CassetteError, type Entry } from '../../proxy/cassette.js';
import type { Interaction, RecordedRequest } from '../../proxy/interaction.js';
import { matchKey, matchView } from '../../proxy/match.js';
import { tempCassette } from './helpers.js';

const keyOf = (r: RecordedRequest) => matchKey(matchView(r));
const open = (dir: string, writable = true) => Cassette.open(dir, { keyOf, routeOf: (r) => `${r.method} ${r.path}`, writable });
/** Sets a file's modification time to `seconds` before the index's. */
const age = (dir: string, file: string, seconds: number) => {
  const t = statSync(join(dir, 'index.json')).mtime.getTime() / 1000 - seconds;
  utimesSync(join(dir, file), t, t);
};

function draft(q: string, status = 200): Omit<Interaction, 'sequence'> {
  const request: RecordedRequest = { method: 'GET', path: '/search/issues', query: { q: [q] }, headers: { accept: 'application/vnd.service+json' } };
  return {
    version: 1, key: keyOf(request), recordedAt: '2026-03-10T12:00:00.000Z', upstream: 'http://upstream.test', request,
    response: { status, headers: { 'content-type': 'application/json' }, body: { encoding: 'json', json: { q } } }, durationMs: 3,
  };
}
type IndexEntry = [key: string, request: string, ...files: string[]];
const entries = (dir: string) => JSON.parse(readFileSync(join(dir, 'index.json'), 'utf8')).interactions as IndexEntry[];
/** Match key → file names, as the index says. */
const index = (dir: string) => Object.fromEntries(entries(dir).map(([key, , ...files]) => [key, files]));

/**
 * Opens `dir` read-only after corrupting, behind the index's back, the fixture of `added` (two keys)
 * that opening does not sample (the first of the index's sorted keys confirms the keying): a
 * trusted index reads it only when asked for.
 */
function openTrusted(dir: string, added: readonly Entry[]): Cassette {
  const [sampled, other] = [...added].sort((a, b) => a.interaction.key.localeCompare(b.interaction.key));
  writeFileSync(join(dir, other!.file), '{ not json');
  age(dir, other!.file, 10);
  const opened = open(dir, false);
  expect(opened.get(sampled!.interaction.key)[0]!.interaction.response.status).toBe(200);
  expect(() => opened.get(other!.interaction.key)).toThrow(`fixture ${other!.file} in ${dir} is not valid JSON`);
  return opened;
}

describe('cassette folder', () => {
  it('writes one readable file per interaction and an index of keys to files in sequence order', () => {
    const dir = tempCassette();
    const c = open(dir);
    const a = c.add(draft('widget'));
    const b = c.add(draft('widget', 201));
    c.flush();
    expect(a.file).toMatch(/^get-search-issues-[0-9a-f]{8}-000\.json$/);
    expect(b.file).toMatch(/-001\.json$/);
    expect(index(dir)).toEqual({ [a.interaction.key]: [a.file, b.file] });
    const text = readFileSync(join(dir, a.file), 'utf8');
    expect(text).toContain('\n  "key": ');
    expect(Object.keys(JSON.parse(text)).slice(0, 3)).toEqual(['version', 'key', 'sequence']);
    expect(open(dir, false).get(a.interaction.key).map((e) => e.interaction.response.status)).toEqual([200, 201]);
  });

  it('with a fresh index reads at startup only the one fixture that confirms the keying, the others when asked for', () => {
    const dir = tempCassette();
    const c = open(dir);
    const added = [c.add(draft('widget')), c.add(draft('gadget'))];
    c.flush();
    expect(openTrusted(dir, added).size).toBe(2);
  });

  it('an index whose keys no longer match how requests are keyed is rebuilt', () => {
    const dir = tempCassette();
    const c = open(dir);
    const entry = c.add(draft('widget'));
    c.flush();
    // As if written by a proxy that keyed requests otherwise: same files, other keys.
    const path = join(dir, 'index.json');
    const [[, request, ...files]] = entries(dir) as [IndexEntry];
    writeFileSync(path, JSON.stringify({ version: 2, interactions: [['old-keying', request, ...files]] }));
    const reopened = open(dir, false);
    expect(reopened.get('old-keying')).toEqual([]);
    expect(reopened.get(entry.interaction.key).map((e) => e.file)).toEqual([entry.file]);
  });

  it('writes the index one key per line, with its method and path, its files in sequence order', () => {
    const dir = tempCassette();
    const c = open(dir);
    const added = [c.add(draft('widget')), c.add(draft('gadget')), c.add(draft('gadget', 201))];
    c.flush();
    const lines = readFileSync(join(dir, 'index.json'), 'utf8').trim().split('\n');
    expect(lines).toHaveLength(2 + 2);
    expect(lines.slice(1, -1).map((l) => JSON.parse(l.replace(/,$/, '')))).toEqual(entries(dir));
    expect(entries(dir)).toContainEqual([added[1]!.interaction.key, 'GET /search/issues', added[1]!.file, added[2]!.file]);
    expect(entries(dir)).toContainEqual([added[0]!.interaction.key, 'GET /search/issues', added[0]!.file]);
  });

  it('still reads a version 1 index, as an older proxy wrote it, without reading the fixtures', () => {
    const dir = tempCassette();
    const c = open(dir);
    const added = [c.add(draft('widget')), c.add(draft('gadget')), c.add(draft('gadget', 201))];
    c.flush();
    // Two objects keyed by match key.
    const v1 = { version: 1, interactions: index(dir), requests: Object.fromEntries(entries(dir).map(([key, request]) => [key, request])) };
    writeFileSync(join(dir, 'index.json'), JSON.stringify(v1, null, 2));
    const reopened = openTrusted(dir, added.slice(0, 2));
    expect(reopened.size).toBe(3);
    expect(reopened.sequence(added[1]!.interaction.key)).toEqual([added[1]!.file, added[2]!.file]);
  });

  it('an index listing a key twice is rebuilt, so neither entry\'s files are hidden', () => {
    const dir = tempCassette();
    const c = open(dir);
    const a = c.add(draft('widget'));
    const b = c.add(draft('gadget'));
    c.flush();
    const path = join(dir, 'index.json');
    writeFileSync(path, JSON.stringify({ version: 2, interactions: entries(dir).map(([, request, ...files]) => [a.interaction.key, request, ...files]) }));
    const reopened = open(dir, false);
    expect(reopened.sequence(a.interaction.key)).toEqual([a.file]);
    expect(reopened.sequence(b.interaction.key)).toEqual([b.file]);
  });

  it('reads only the first interaction of each key for the near-miss report', () => {
    const dir = tempCassette();
    const c = open(dir);
    const first = c.add(draft('widget'));
    const second = c.add(draft('widget', 201));
    c.flush();
    writeFileSync(join(dir, second.file), '{ not json');
    age(dir, second.file, 10);
    expect(open(dir, false).near('GET /search/issues').map((e) => e.file)).toEqual([first.file]);
  });

  it('re-reads and re-keys every fixture when one changed after the index', () => {
    const dir = tempCassette();
    const entry = open(dir).add(draft('widget'));
    const edited = { ...entry.interaction, request: { ...entry.interaction.request, query: { q: ['gadget'] } } };
    writeFileSync(join(dir, entry.file), JSON.stringify(edited));
    age(dir, entry.file, -10);
    const reopened = open(dir, false);
    expect(reopened.get(entry.interaction.key)).toEqual([]);
    expect(reopened.get(keyOf(edited.request)).map((e) => e.file)).toEqual([entry.file]);
  });

  it('picks up a fixture added by hand (stale index) and a missing index, rebuilding it', () => {
    const dir = tempCassette();
    const c = open(dir);
    const first = c.add(draft('widget'));
    const copy = { ...first.interaction, key: 'stale-key', request: { ...first.interaction.request, query: { q: ['gadget'] } } };
    writeFileSync(join(dir, 'by-hand.json'), JSON.stringify(copy));
    const reopened = open(dir, false);
    const gadget = keyOf(copy.request);
    // The key is recomputed from the request, so a hand edit of the query is honoured.
    expect(reopened.get(gadget).map((e) => e.file)).toEqual(['by-hand.json']);
    open(dir);
    expect(index(dir)[gadget]).toEqual(['by-hand.json']);
    rmSync(join(dir, 'index.json'));
    expect(open(dir).size).toBe(2);
    expect(existsSync(join(dir, 'index.json'))).toBe(true);
  });

  it('an index not yet rewritten after the last additions (a killed recorder) is rebuilt from the files on open', () => {
    const dir = tempCassette();
    const c = open(dir);
    c.add(draft('widget'));
    c.flush();
    const late = c.add(draft('gadget'));
    expect(open(dir, false).get(late.interaction.key).map((e) => e.file)).toEqual([late.file]);
  });

  it('refuses a malformed fixture with one line naming the file', () => {
    const dir = tempCassette();
    open(dir).add(draft('widget'));
    writeFileSync(join(dir, 'broken.json'), '{"version": 1, "key": ');
    expect(() => open(dir, false)).toThrow(CassetteError);
    expect(() => open(dir, false)).toThrow(/^fixture broken\.json in .* is not valid JSON/);
    writeFileSync(join(dir, 'broken.json'), JSON.stringify({ ...draft('x'), sequence: 0, response: { status: 'ok', headers: {} } }));
    expect(() => open(dir, false)).toThrow('fixture broken.json: "response.status" must be an HTTP status');
    try {
      open(dir, false);
    } catch (err) {
      expect((err as Error).message.split('\n')).toHaveLength(1);
    }
  });

  it('refuses a missing folder in replay and creates it for recording', () => {
    const dir = tempCassette();
    expect(() => open(dir, false)).toThrow(/fixtures folder .* does not exist/);
    expect(open(dir).size).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(['cassette.json', 'index.json']);
  });

  it('ignores a temporary file left by a killed writer, and removes it when opened for writing', () => {
    const dir = tempCassette();
    open(dir).add(draft('widget'));
    writeFileSync(join(dir, '.get-x.json.123.456.tmp'), '{"half": ');
    expect(open(dir, false).size).toBe(1);
    open(dir);
    expect(readdirSync(dir).some((f) => f.endsWith('.tmp'))).toBe(false);
  });

  it('a new recording of a key restarts its sequence and drops the older files of that key', () => {
    const dir = tempCassette();
    const c = open(dir);
    for (const status of [200, 201, 202]) c.add(draft('widget', status));
    const again = open(dir);
    const entry = again.add(draft('widget', 204), true);
    expect(entry.file).toMatch(/-000\.json$/);
    expect(again.get(entry.interaction.key).map((e) => e.interaction.response.status)).toEqual([204]);
    expect(readdirSync(dir).filter((f) => f.startsWith('get-'))).toEqual([entry.file]);
  });
});
