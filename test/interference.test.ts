/**
 * Which checks may overlap while one waits: a write runs while a polling check it cannot disturb is
 * parked, and not while one it could disturb is (spec/catalogue.ts WRITE_EFFECTS); the first polling
 * check holds back the polls a write of its own module could disturb until that write has run.
 */
import { describe, expect, it } from 'vitest';
import type { Client } from '../core/client.js';
import { Journal } from '../core/journal.js';
import { CheckContext, type CheckSpec, type Suite } from '../core/suite.js';
import { vendorNames } from '../spec/vendor.js';
import { disturbs, pollStarts, waitsFor, type Allowed } from '../src/interference.js';
import { planChecks, runConformance } from '../src/runner.js';

const spec = (id: string, extra: Partial<CheckSpec> = {}): CheckSpec => ({ id, title: id, requirement: 'cond.etag-304', run: async () => undefined, ...extra });
const module = (name: string): Suite => ({ name, description: name, checks: () => [] });
const ALL: Allowed = { writes: true, exhausts: true };

const eventsPoll = spec('events-poll', { polls: 'events' });
const notificationsPoll = spec('notifications-poll', { polls: 'notifications' });
const markRead = spec('mark-read', { writes: 'notifications' });
const dismissAlert = spec('dismiss-alert', { writes: 'code-scanning' });
const startImport = spec('start-import', { writes: 'imports' });
const read = spec('read');
/** A read of an import, which starts one to read where writes are allowed and the target has none. */
const readImport = spec('read-import', { mayWrite: ['imports'] });

describe('disturbs', () => {
  it('a write disturbs the polls of what it changes, and no other', () => {
    expect(disturbs(markRead, notificationsPoll)).toBe(true);
    expect(disturbs(markRead, eventsPoll)).toBe(false);
    expect(disturbs(dismissAlert, eventsPoll)).toBe(false);
    expect(disturbs(dismissAlert, notificationsPoll)).toBe(false);
    // An import pushes commits: a push is an event.
    expect(disturbs(startImport, eventsPoll)).toBe(true);
  });
});

describe('waitsFor', () => {
  it('a write waits for a parked poll it could disturb, not for one it cannot', () => {
    expect(waitsFor(markRead, notificationsPoll, ALL)).toBe(true);
    expect(waitsFor(dismissAlert, notificationsPoll, ALL)).toBe(false);
  });

  it('a write waits for any parked check that is not a poll: what it reads is not declared', () => {
    expect(waitsFor(dismissAlert, read, ALL)).toBe(true);
  });

  it('a poll waits for a parked write that could disturb it; a read waits for nothing', () => {
    expect(waitsFor(eventsPoll, startImport, ALL)).toBe(true);
    expect(waitsFor(eventsPoll, markRead, ALL)).toBe(false);
    expect(waitsFor(read, markRead, ALL)).toBe(false);
  });

  it('without --allow-writes a write is skipped, so it waits for nothing; a check spending a window waits for every one', () => {
    expect(waitsFor(markRead, notificationsPoll, { writes: false, exhausts: false })).toBe(false);
    expect(waitsFor(spec('exhaust', { exhausts: true }), eventsPoll, ALL)).toBe(true);
    expect(waitsFor(spec('exhaust', { exhausts: true }), eventsPoll, { writes: true, exhausts: false })).toBe(false);
  });
});

describe('a read that may set up what it reads', () => {
  it('is kept apart from the polls that write could disturb, as the write is, where writes are allowed', () => {
    expect(disturbs(readImport, eventsPoll)).toBe(true);
    expect(disturbs(readImport, notificationsPoll)).toBe(true);
    expect(waitsFor(readImport, eventsPoll, ALL)).toBe(true);
    expect(waitsFor(eventsPoll, readImport, ALL)).toBe(true);
  });

  it('without --allow-writes it sets nothing up, so it waits for nothing and holds back no poll', () => {
    const none: Allowed = { writes: false, exhausts: false };
    expect(waitsFor(readImport, eventsPoll, none)).toBe(false);
    expect(waitsFor(eventsPoll, readImport, none)).toBe(false);
  });

  it('the reads of an import declare the import they may start, and still run without --allow-writes', async () => {
    const declared = planChecks({ base_url: 'http://plan.invalid' }, {}).filter((p) => p.spec.mayWrite);
    expect(declared.map((p) => p.spec.id)).toContain('schema.imports.get');
    expect(declared.map((p) => p.spec.id)).toContain('auth.lockout.imports.get');
    // Run by the whole run with writes (test/suites/sensitivity.test.ts), an undeclared one fails there: ensureImport refuses it.
    const r = await runConformance({ allowWrites: false, grep: 'schema.imports.get' });
    expect(r.checks.map((c) => [c.id, c.skipReason])).toEqual([['schema.imports.get', 'missing-resource']]);
  });
});

describe('a write a check sends', () => {
  const sent: string[] = [];
  const client = { send: async (req: { method?: string; path: string }) => { sent.push(`${req.method ?? 'GET'} ${req.path}`); return { status: 200 }; } } as unknown as Client;
  const context = (declares: Partial<CheckSpec>, writesAllowed: boolean) => new CheckContext(spec('c', declares), client, { base_url: 'http://t.invalid' }, vendorNames('service'), new Journal(), false, writesAllowed);
  const markAllRead = { method: 'PUT', path: '/notifications', body: {} };

  it('goes out only as declared: its area, by writes or mayWrite, in a run with --allow-writes', async () => {
    sent.length = 0;
    await context({ writes: 'notifications' }, true).request(markAllRead);
    await context({ mayWrite: ['code-scanning', 'notifications'] }, true).request(markAllRead);
    expect(sent).toEqual(['PUT /notifications', 'PUT /notifications']);
  });

  it('is refused before it reaches the target when undeclared, declared for another area, or without --allow-writes; a read never is', async () => {
    sent.length = 0;
    await expect(context({}, true).request(markAllRead)).rejects.toThrow('c sent PUT /notifications, a write of notifications it does not declare');
    await expect(context({ mayWrite: ['imports'] }, true).request(markAllRead)).rejects.toThrow('a write of notifications it does not declare');
    await expect(context({ writes: 'notifications' }, false).request(markAllRead)).rejects.toThrow('c sent PUT /notifications in a run without --allow-writes');
    expect(sent).toEqual([]);
    await context({}, false).request({ path: '/notifications?all=true' });
    expect(sent).toEqual(['GET /notifications?all=true']);
  });
});

describe('pollStarts', () => {
  const notifications = module('notifications');
  const conditional = module('conditional');
  const planned = [
    { module: notifications, spec: read },
    { module: notifications, spec: notificationsPoll },
    { module: notifications, spec: dismissAlert },
    { module: notifications, spec: markRead },
    { module: notifications, spec: spec('read-after') },
    { module: conditional, spec: eventsPoll },
    { module: conditional, spec: spec('notifications-poll-2', { polls: 'notifications' }) },
    { module: module('lockout'), spec: spec('mark-read-2', { writes: 'notifications' }) },
  ];

  it('the polls a write of the first poll\'s module could disturb begin right after its last such write; the others at once', () => {
    const starts = pollStarts(planned, 1, ALL);
    expect(starts.now).toEqual([5]);
    expect([...starts.after]).toEqual([[3, [1, 6]]]);
  });

  it('a write of a later module holds back no poll (it waits for them instead)', () => {
    const starts = pollStarts(planned, 5, ALL);
    expect(starts.now).toEqual([5, 6]);
    expect(starts.after.size).toBe(0);
  });

  it('without --allow-writes every poll begins at once', () => {
    const starts = pollStarts(planned, 1, { writes: false, exhausts: false });
    expect(starts.now).toEqual([1, 5, 6]);
    expect(starts.after.size).toBe(0);
  });
});
