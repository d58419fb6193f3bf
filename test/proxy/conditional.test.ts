/** Synthesized conditional answers: quoted ETags and Last-Modified on replayed bodies, 304s as RFC 9110 and the spec describe them. */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Answer } from '../../proxy/answer.js';
import { answerConditional, type Representation } from '../../proxy/conditional.js';

const RECORDED_AT = '2026-03-10T12:00:00.000Z';
const rep = (body: string, headers: Record<string, string> = {}, status = 200): Representation => ({
  answer: { status, headers: { 'content-type': 'application/json', 'x-poll-interval': '60', ...headers }, ...(body ? { body: Buffer.from(body) } : {}) },
  recordedAt: RECORDED_AT,
});
/** A GET of an event timeline, whose answers the spec says carry an ETag ("Polling uses `ETag`"), unless another endpoint is named. */
const get = (headers: Record<string, string> = {}, endpoint = 'events.repo') => ({ method: 'GET', headers, endpoint });
/** A strong ETag of the bytes served. */
const etagOf = (r: Representation) => `"${createHash('sha256').update(r.answer.body ?? '').digest('hex')}"`;

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

  it('date every replayed answer when it was recorded (without a recorded Date), so time-relative rules judge it by that time', () => {
    expect(answerConditional(get(), rep('[]')).headers.date).toBe('Tue, 10 Mar 2026 12:00:00 GMT');
    expect(answerConditional({ method: 'DELETE', headers: {} }, rep('', {}, 204)).headers.date).toBe('Tue, 10 Mar 2026 12:00:00 GMT');
    expect(answerConditional(get({ 'if-none-match': '*' }), rep('[]')).headers.date).toBe('Tue, 10 Mar 2026 12:00:00 GMT');
  });

  it('keep the upstream\'s Date when the recording has it', () => {
    const upstreamDate = 'Tue, 10 Mar 2026 11:59:58 GMT';
    expect(answerConditional(get(), rep('[]', { date: upstreamDate })).headers.date).toBe(upstreamDate);
    expect(answerConditional({ method: 'DELETE', headers: {} }, rep('', { date: upstreamDate }, 204)).headers.date).toBe(upstreamDate);
  });

  it('take Last-Modified from the recording, else the time it was recorded, where the spec states it (notification reads)', () => {
    const thread = (headers: Record<string, string> = {}) => get(headers, 'notifications.thread');
    expect(answerConditional(thread(), rep('[]', { 'last-modified': 'Mon, 09 Mar 2026 08:00:00 GMT' })).headers['last-modified']).toBe('Mon, 09 Mar 2026 08:00:00 GMT');
    const synthesized = answerConditional(thread(), rep('[]'));
    expect(synthesized.headers['last-modified']).toBe('Tue, 10 Mar 2026 12:00:00 GMT');
    // "Polling: responses carry `Last-Modified`": the spec states no ETag there, and none was recorded.
    expect(synthesized.headers.etag).toBeUndefined();
    expectNotModified(answerConditional(thread({ 'if-modified-since': 'Tue, 10 Mar 2026 12:00:00 GMT' }), rep('[]')));
  });

  it('synthesize none where the spec states none and the recording carried none (the platform sends none on search)', () => {
    const search = (headers: Record<string, string> = {}) => get(headers, 'search.issues');
    const plain = answerConditional(search(), rep('{"total_count":0}'));
    expect(plain.headers.etag).toBeUndefined();
    expect(plain.headers['last-modified']).toBeUndefined();
    expect(answerConditional(search({ 'if-none-match': '*' }), rep('{"total_count":0}')).status).toBe(200);
    expect(answerConditional(search({ 'if-modified-since': 'Wed, 11 Mar 2099 00:00:00 GMT' }), rep('{"total_count":0}')).status).toBe(200);
    // Nor off the catalogue.
    expect(answerConditional({ method: 'GET', headers: {} }, rep('[]')).headers.etag).toBeUndefined();
  });

  it('synthesize the validator a recording carried, on any endpoint, and answer 304 to it', () => {
    const search = (headers: Record<string, string> = {}) => get(headers, 'search.issues');
    const recorded = rep('{"total_count":0}', { etag: '"from-upstream"' });
    const a = answerConditional(search(), recorded);
    expect(a.headers.etag).toBe(etagOf(recorded));
    expect(a.headers['last-modified']).toBeUndefined();
    expectNotModified(answerConditional(search({ 'if-none-match': a.headers.etag! }), recorded));
  });

  it('leave writes, answers without a 200 body and recorded 304s alone', () => {
    const recorded304 = rep('', { etag: '"upstream"' }, 304);
    expect(answerConditional(get({ 'if-none-match': '"other"' }), recorded304)).toMatchObject({ status: 304, headers: { etag: '"upstream"' } });
    const put = rep('{"message":"x"}', {}, 202);
    expect(answerConditional({ method: 'PUT', headers: { 'if-none-match': '*' } }, put)).toMatchObject({ status: 202, body: put.answer.body });
    const missing = rep('{"message":"Not Found"}', {}, 404);
    expect(answerConditional(get({ 'if-none-match': '*' }), missing).headers.etag).toBeUndefined();
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
