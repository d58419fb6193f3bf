/** Synthesized conditional answers: quoted ETags and Last-Modified on replayed bodies, 304s as RFC 9110 and the spec describe them. */
import { describe, expect, it } from 'vitest';
import type { Answer } from '../../proxy/answer.js';
import { answerConditional, representationFor, withValidators, type Representation } from '../../proxy/conditional.js';
import type { Interaction } from '../../proxy/interaction.js';

const RECORDED_AT = '2026-03-10T12:00:00.000Z';
const rep = (body: string, headers: Record<string, string> = {}, status = 200): Representation => ({
  answer: { status, headers: { 'content-type': 'application/json', 'x-poll-interval': '60', ...headers }, ...(body ? { body: Buffer.from(body) } : {}) },
  recordedAt: RECORDED_AT,
});
const get = (headers: Record<string, string> = {}) => ({ method: 'GET', headers });
const etagOf = (r: Representation) => withValidators(r).headers.etag!;

function expectNotModified(a: Answer): void {
  expect(a.status).toBe(304);
  expect(a.body).toBeUndefined();
  expect(a.headers['content-type']).toBeUndefined();
  expect(a.headers['x-poll-interval']).toBe('60');
}

describe('validators on replayed bodies', () => {
  it('add a quoted strong ETag that follows the bytes served', () => {
    const a = answerConditional(get(), rep('[1]'));
    expect(a.status).toBe(200);
    expect(a.headers.etag).toMatch(/^"[^"]+"$/);
    expect(a.body?.toString()).toBe('[1]');
    expect(etagOf(rep('[1]'))).toBe(a.headers.etag);
    expect(etagOf(rep('[2]'))).not.toBe(a.headers.etag);
  });

  it('take Last-Modified from the recording, else the time it was recorded', () => {
    expect(answerConditional(get(), rep('[]', { 'last-modified': 'Mon, 09 Mar 2026 08:00:00 GMT' })).headers['last-modified']).toBe('Mon, 09 Mar 2026 08:00:00 GMT');
    expect(answerConditional(get(), rep('[]')).headers['last-modified']).toBe('Tue, 10 Mar 2026 12:00:00 GMT');
  });

  it('leave writes and answers without a 200 body alone', () => {
    const put = rep('{"message":"x"}', {}, 202);
    expect(answerConditional({ method: 'PUT', headers: { 'if-none-match': '*' } }, put)).toBe(put.answer);
    const missing = rep('{"message":"Not Found"}', {}, 404);
    expect(answerConditional(get({ 'if-none-match': '*' }), missing)).toBe(missing.answer);
  });
});

describe('If-None-Match', () => {
  const r = rep('[{"id":1}]');
  const etag = etagOf(r);

  it('answers 304 without a body when the quoted ETag comes back, keeping X-Poll-Interval', () => {
    const a = answerConditional(get({ 'if-none-match': etag }), r);
    expectNotModified(a);
    expect(a.headers.etag).toBe(etag);
  });

  it('matches within a list, weakly (W/) and for *', () => {
    expectNotModified(answerConditional(get({ 'if-none-match': `"other", W/${etag}` }), r));
    expectNotModified(answerConditional(get({ 'if-none-match': '*' }), r));
  });

  it('answers 200 with the body for another or an unquoted value ("the quotes around the value are required")', () => {
    expect(answerConditional(get({ 'if-none-match': '"other"' }), r).status).toBe(200);
    const unquoted = answerConditional(get({ 'if-none-match': etag.slice(1, -1) }), r);
    expect(unquoted.status).toBe(200);
    expect(unquoted.body?.toString()).toBe('[{"id":1}]');
  });

  it('overrides If-Modified-Since (RFC 9110 13.1.3)', () => {
    expect(answerConditional(get({ 'if-none-match': '"other"', 'if-modified-since': 'Wed, 11 Mar 2026 00:00:00 GMT' }), r).status).toBe(200);
  });
});

describe('If-Modified-Since', () => {
  const r = rep('[]', { 'last-modified': 'Tue, 10 Mar 2026 12:00:00 GMT' });

  it('answers 304 for the Last-Modified sent back unchanged, or a later date', () => {
    expectNotModified(answerConditional(get({ 'if-modified-since': 'Tue, 10 Mar 2026 12:00:00 GMT' }), r));
    expectNotModified(answerConditional(get({ 'if-modified-since': 'Wed, 11 Mar 2026 00:00:00 GMT' }), r));
  });

  it('answers 200 for an earlier or unreadable date', () => {
    expect(answerConditional(get({ 'if-modified-since': 'Tue, 10 Mar 2026 11:59:59 GMT' }), r).status).toBe(200);
    expect(answerConditional(get({ 'if-modified-since': 'yesterday' }), r).status).toBe(200);
  });
});

describe('a recorded 304', () => {
  const current = rep('[{"id":2}]');
  const recorded304 = rep('', { etag: '"upstream-etag"' }, 304);

  it('is judged against the 200 it referred to: 304 for that body\'s ETag, the 200 otherwise', () => {
    expectNotModified(answerConditional(get({ 'if-none-match': etagOf(current) }), recorded304, current));
    const changed = answerConditional(get({ 'if-none-match': '"upstream-etag"' }), recorded304, current);
    expect(changed.status).toBe(200);
    expect(changed.body?.toString()).toBe('[{"id":2}]');
    expect(answerConditional(get(), recorded304, current).status).toBe(200);
  });

  it('is served as recorded when the cassette lacks its 200', () => {
    expect(answerConditional(get({ 'if-none-match': '"x"' }), recorded304)).toBe(recorded304.answer);
  });

  it('refers to the latest earlier 200 of its key', () => {
    const at = (sequence: number, status: number, body = true): Interaction => ({
      version: 1, key: 'k', sequence, recordedAt: RECORDED_AT, upstream: 'http://up',
      request: { method: 'GET', path: '/events', query: {}, headers: {} },
      response: { status, headers: {}, ...(body ? { body: { encoding: 'json', json: [sequence] } } : {}) }, durationMs: 1,
    });
    const all = [at(0, 200), at(1, 304, false), at(2, 200), at(3, 304, false), at(4, 200)];
    expect(representationFor(all[3]!, all)?.sequence).toBe(2);
    expect(representationFor(all[1]!, all)?.sequence).toBe(0);
    expect(representationFor(all[0]!, all)).toBeUndefined();
  });
});
