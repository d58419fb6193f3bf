/**
 * Files stay inside: a HAR whose method is a path writes nothing anywhere (exit 2, one line), a
 * fixture's name is made of slugs only, and replay refuses a cassette whose index names a file
 * outside it or whose files are symbolic links (one line, exit 2), rather than serve from elsewhere.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Cassette, INDEX_FILE, META_FILE } from '../../proxy/cassette.js';
import type { Interaction } from '../../proxy/interaction.js';
import { cassetteKeys } from '../../proxy/server.js';
import { EXIT } from '../../core/exit-codes.js';
import { runCli } from '../helpers/cli.js';

const request = { method: 'GET', path: '/notifications', query: {}, headers: {} };
const draft = (method = 'GET'): Omit<Interaction, 'sequence'> => ({
  version: 1, key: cassetteKeys().keyOf({ ...request, method }), recordedAt: '2026-01-01T00:00:00.000Z', upstream: 'http://upstream.invalid',
  request: { ...request, method }, response: { status: 200, headers: { 'content-type': 'application/json' }, body: { encoding: 'json', json: [] } }, durationMs: 1,
});

/** Every file under `dir`, as relative paths. */
const everything = (dir: string) => readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort();

/** A cassette of one interaction, its index written; returns the folder and the fixture's name. */
function oneFixture(): { dir: string; file: string } {
  const dir = join(mkdtempSync(join(tmpdir(), 'hostile-')), 'fixtures');
  const cassette = Cassette.open(dir, { ...cassetteKeys(), writable: true });
  const { file } = cassette.add(draft());
  cassette.flush();
  return { dir, file };
}

/** Moves a cassette file out of the folder and links it back in. */
function linkFromOutside(dir: string, name: string): void {
  const outside = join(dir, '..', `outside-${name}`);
  renameSync(join(dir, name), outside);
  symlinkSync(outside, join(dir, name));
}

describe('a HAR entry whose method is a path', () => {
  it('is refused with one line and exit 2, and nothing is written inside the folder or above it', async () => {
    const root = mkdtempSync(join(tmpdir(), 'hostile-har-'));
    const fixtures = join(root, 'one', 'two', 'fixtures');
    mkdirSync(join(root, 'one', 'two'), { recursive: true });
    const har = join(mkdtempSync(join(tmpdir(), 'har-')), 'evil.har');
    const entry = (method: string) => ({
      startedDateTime: '2026-01-01T00:00:00.000Z', time: 1,
      request: { method, url: 'http://upstream.invalid/notifications', httpVersion: 'HTTP/1.1', cookies: [], headers: [], queryString: [], headersSize: -1, bodySize: 0 },
      response: { status: 200, statusText: 'OK', httpVersion: 'HTTP/1.1', cookies: [], headers: [], content: { size: 2, mimeType: 'application/json', text: '[]' }, redirectURL: '', headersSize: -1, bodySize: 2 },
      cache: {}, timings: { send: 0, wait: 1, receive: 0 },
    });
    writeFileSync(har, JSON.stringify({ log: { version: '1.2', creator: { name: 'x', version: '1' }, entries: [entry('GET'), entry('../../x')] } }));
    const r = await runCli(['proxy', 'import-har', '--har', har, '--fixtures', fixtures]);
    expect(r.status).toBe(EXIT.usage);
    expect(r.stderr.trim().split('\n')).toEqual([expect.stringMatching(/HAR entry 1: request\.method "\.\.\/\.\.\/x" is not an HTTP method/)]);
    expect(everything(root)).toEqual(['one', join('one', 'two')]);
  });
});

describe('a fixture whose method is not a plain word', () => {
  it('is written under a slugged name inside the folder', () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'hostile-')), 'fixtures');
    const { file } = Cassette.open(dir, { ...cassetteKeys(), writable: true }).add(draft('../../X'));
    expect(file).toMatch(/^x-notifications-[0-9a-f]{8}-000\.json$/);
    expect(readdirSync(join(dir, '..'))).toEqual(['fixtures']);
  });

  it('is refused on replay when it was written by hand', async () => {
    const { dir, file } = oneFixture();
    const path = join(dir, file);
    writeFileSync(path, readFileSync(path, 'utf8').replace('"method": "GET"', '"method": "../../x"'));
    const r = await runCli(['proxy', '--fixtures', dir, '--port', '0'], {}, 15_000);
    expect(r.status).toBe(EXIT.usage);
    expect(r.stderr.trim().split('\n')).toEqual([expect.stringContaining(`fixture ${file}: "request.method" must be an HTTP method`)]);
  });
});

describe('replay of a cassette reaching outside its folder', () => {
  const refusal = async (dir: string) => {
    const r = await runCli(['proxy', '--fixtures', dir, '--port', '0'], {}, 15_000);
    expect(r.stdout).not.toContain('listening');
    expect(r.status).toBe(EXIT.usage);
    return r.stderr.trim().split('\n');
  };

  it('refuses an index entry naming ../x.json, with one line', async () => {
    const { dir, file } = oneFixture();
    writeFileSync(join(dir, '..', 'x.json'), readFileSync(join(dir, file)));
    const index = JSON.parse(readFileSync(join(dir, INDEX_FILE), 'utf8'));
    index.interactions = index.interactions.map(([key, request]: string[]) => [key, request, '../x.json']);
    writeFileSync(join(dir, INDEX_FILE), JSON.stringify(index));
    expect(await refusal(dir)).toEqual([expect.stringContaining(`${INDEX_FILE} in ${dir} lists "../x.json", which is not a fixture file name inside the folder`)]);
  });

  it.each([['a fixture', ''], ['the index', INDEX_FILE], ['the identity table', META_FILE]])('refuses %s linked from outside, with one line', async (_, name) => {
    const { dir, file } = oneFixture();
    const linked = name || file;
    linkFromOutside(dir, linked);
    expect(await refusal(dir)).toEqual([expect.stringContaining(`${linked} in ${dir} is a symbolic link`)]);
  });
});
