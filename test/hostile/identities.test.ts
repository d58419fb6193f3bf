/**
 * Nothing blocking on the request path: new credentials are placed without stalling the event loop
 * (HMAC for tokens; scrypt, for passwords and older cassettes, on the thread pool), unknown callers
 * of a replay do not grow the identity table, the in-memory cache is bounded, and a recording saves
 * new placeholders batched rather than rewriting cassette.json per caller.
 */
import { createHmac, scryptSync } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { Cassette, CassetteError, META_FILE } from '../../proxy/cassette.js';
import { CACHE_LIMIT, freshIdentityTable, Identities, type IdentityTable } from '../../proxy/identities.js';
import { cassetteKeys, createProxy } from '../../proxy/server.js';
import { call } from '../helpers/reference.js';

/** The longest the event loop stalled while `work` ran, in milliseconds. */
async function longestStall(work: () => Promise<unknown>): Promise<number> {
  const h = monitorEventLoopDelay({ resolution: 10 });
  h.enable();
  try {
    await work();
  } finally {
    h.disable();
  }
  return h.max / 1e6;
}

const tokens = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `ghp_${tag}${i}abcdefghijklmnopqrstuvwxyz`);
/** A generous bound for a loaded machine: a synchronous scrypt per secret stalls for seconds at these counts (about 50 ms each). */
const STALL_MS = 1000;

describe('placing new credentials', () => {
  it('placing 500 new tokens on a current cassette does not stall the event loop', async () => {
    const ids = new Identities(freshIdentityTable(), () => {});
    const stall = await longestStall(() => Promise.all(tokens(500, 'a').map((t) => ids.settled(() => ids.placeholder(t)))));
    expect(stall).toBeLessThan(STALL_MS);
  });

  it('placing 40 new passwords, or tokens on an older (scrypt) cassette, does not stall it either, and each gets its own placeholder', async () => {
    const legacy: IdentityTable = { salt: 'feedface', placeholders: {} };
    const ids = new Identities(legacy, () => {});
    const secrets = [...tokens(20, 'b'), ...Array.from({ length: 20 }, (_, i) => `user${i}:hunter2`)];
    let placed: string[] = [];
    const stall = await longestStall(async () => {
      placed = await Promise.all(secrets.map((s) => ids.settled(() => ids.placeholder(s))));
    });
    expect(stall).toBeLessThan(STALL_MS);
    expect(new Set(placed).size).toBe(secrets.length);
    expect(Object.keys(legacy.placeholders)).toHaveLength(secrets.length);
  });

  it('keys a current table by HMAC-SHA256 of tokens and scrypt of user:password pairs, and an older one by scrypt alone', () => {
    const scrypt = (secret: string, salt: string) => scryptSync(secret, salt, 32, { N: 16384 }).toString('hex');
    const current = freshIdentityTable();
    const ids = new Identities(current, () => {});
    ids.placeholder('ghp_token');
    ids.placeholder('ada:hunter2');
    expect(current.placeholders).toEqual({
      [createHmac('sha256', current.salt).update('ghp_token').digest('hex')]: 'token#1',
      [scrypt('ada:hunter2', current.salt)]: 'token#2',
    });
    const older: IdentityTable = { salt: 'feedface', placeholders: {} };
    new Identities(older, () => {}).placeholder('ghp_token');
    expect(older.placeholders).toEqual({ [scrypt('ghp_token', 'feedface')]: 'token#1' });
  });
});

describe('credentials a replay does not know', () => {
  it('get placeholders of their own without growing the table, and a known one keeps its own', async () => {
    const table = freshIdentityTable();
    new Identities(table, () => {}).placeholder('ghp_known');
    const ids = new Identities(table);
    const placed = tokens(100, 'c').map((t) => ids.placeholder(t));
    expect(new Set(placed).size).toBe(100);
    expect(placed).not.toContain('token#1');
    expect(ids.placeholder('ghp_known')).toBe('token#1');
    expect(Object.keys(table.placeholders)).toHaveLength(1);
  });

  it('are kept in a bounded cache: past its limit the least recently used is forgotten', () => {
    const ids = new Identities(freshIdentityTable());
    const first = ids.placeholder('ghp_first');
    expect(ids.placeholder('ghp_first')).toBe(first);
    for (const t of tokens(CACHE_LIMIT, 'd')) ids.placeholder(t);
    expect(ids.placeholder('ghp_first')).not.toBe(first);
  });

  it('sent to a replaying proxy leave cassette.json as it was', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'identities-')), 'fixtures');
    Cassette.open(dir, { ...cassetteKeys(), writable: true });
    const before = readFileSync(join(dir, META_FILE), 'utf8');
    const proxy = await createProxy({ mode: 'replay', fixtures: dir, port: 0 });
    try {
      for (const t of tokens(50, 'e')) expect((await call(proxy.url, '/notifications', { token: t })).status).toBe(404);
      expect(Object.keys(proxy.cassette!.meta.placeholders)).toHaveLength(0);
    } finally {
      await proxy.close();
    }
    expect(readFileSync(join(dir, META_FILE), 'utf8')).toBe(before);
  });
});

describe('a recording meeting new credentials', () => {
  it('saves the new placeholders together on the next flush, not one rewrite per caller', () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'identities-')), 'fixtures');
    const cassette = Cassette.open(dir, { ...cassetteKeys(), writable: true });
    const ids = new Identities(cassette.meta, () => cassette.metaChanged());
    const saved = () => Object.keys(JSON.parse(readFileSync(join(dir, META_FILE), 'utf8')).placeholders).length;
    for (const t of tokens(1000, 'f')) ids.placeholder(t);
    expect(saved()).toBe(0);
    cassette.flush();
    expect(saved()).toBe(1000);
  });
});

describe('a cassette naming a digest this proxy does not know', () => {
  it('is refused with one line', () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'identities-')), 'fixtures');
    Cassette.open(dir, { ...cassetteKeys(), writable: true });
    const meta = JSON.parse(readFileSync(join(dir, META_FILE), 'utf8'));
    writeFileSync(join(dir, META_FILE), JSON.stringify({ ...meta, digest: 'md5' }));
    expect(() => Cassette.open(dir, { ...cassetteKeys(), writable: false })).toThrow(CassetteError);
    expect(() => Cassette.open(dir, { ...cassetteKeys(), writable: false })).toThrow(/^cassette\.json: unknown digest "md5" \(expected "hmac-sha256", or none for scrypt\)$/);
  });
});
