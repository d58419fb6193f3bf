/**
 * The verdicts of a negative check given its control: a refusal counts only when the control
 * succeeded and the refusal is the stated one; 406, 415, 429 and 5xx are never it.
 */
import { describe, expect, it } from 'vitest';
import { vendorNames } from '../spec/vendor.js';
import type { Client, Reply, RequestOptions } from '../core/client.js';
import type { Journal } from '../core/journal.js';
import { expectRefusal, judgeRefusal } from '../core/refusal.js';
import { CheckContext, type CheckSpec } from '../core/suite.js';

const spec: CheckSpec = { id: 'test.refusal', title: 'a refusal', requirement: 'search.max-operators', run: async () => undefined };

/** A check context whose client answers each path with the status given for it. */
function context(statuses: Record<string, number>): { t: CheckContext; sent: string[] } {
  const sent: string[] = [];
  const client = {
    send: async (req: RequestOptions): Promise<Reply> => {
      sent.push(req.path);
      const status = statuses[req.path]!;
      const json = status >= 400 ? { message: `said ${status}` } : [];
      return { status, headers: {}, text: JSON.stringify(json), json, exchange: sent.length };
    },
  };
  return { t: new CheckContext(spec, client as unknown as Client, { base_url: 'http://127.0.0.1:1' }, vendorNames('service'), {} as Journal), sent };
}

describe('judgeRefusal', () => {
  it('passes the stated refusal after a successful control', () => {
    expect(judgeRefusal(422, 200, [422]).verdict).toBe('refused');
    expect(judgeRefusal(404, 201, [403, 404]).verdict).toBe('refused');
  });

  it('fails an admitted probe, whatever the control got', () => {
    expect(judgeRefusal(200, 200, [422])).toEqual({ verdict: 'not-refused', reason: 'answered 200, not 422', about: 'probe' });
    expect(judgeRefusal(200, 406, [422]).verdict).toBe('not-refused');
  });

  it('fails another refusal than the stated one after a successful control', () => {
    expect(judgeRefusal(404, 200, [422]).verdict).toBe('not-refused');
    expect(judgeRefusal(401, 200, [403, 404]).verdict).toBe('not-refused');
  });

  it('never passes a 406, 415, 429 or 5xx', () => {
    for (const status of [406, 415, 429, 500, 502, 503]) {
      expect(judgeRefusal(status, 200, [status]).verdict, `expected ${status}`).not.toBe('refused');
      expect(judgeRefusal(status, 200).verdict, `no stated code, ${status}`).not.toBe('refused');
    }
  });

  it('fails a 406, 415 or 500 after a successful control: the server answered the element under test with it', () => {
    for (const status of [406, 415, 500]) expect(judgeRefusal(status, 200, [422]).verdict).toBe('not-refused');
  });

  it('leaves a 429 or a 503 unjudged: throttled or unavailable says nothing about the request', () => {
    for (const status of [429, 503]) expect(judgeRefusal(status, 200, [422]).verdict).toBe('inconclusive');
    expect(judgeRefusal(429, 200, [403], undefined, []).verdict).toBe('not-refused');
  });

  it('where no code is stated, takes any other 4xx', () => {
    for (const status of [400, 401, 403, 404, 409, 422]) expect(judgeRefusal(status, 200).verdict).toBe('refused');
  });

  it('is inconclusive when the control failed, naming what it got', () => {
    for (const control of [401, 404, 406, 429, 500]) {
      const j = judgeRefusal(422, control, [422]);
      expect(j.verdict).toBe('inconclusive');
      expect(j.reason).toContain(`the control answered ${control}`);
    }
  });

  it('takes the success statuses given for the control', () => {
    expect(judgeRefusal(404, 201, [404], [201]).verdict).toBe('refused');
    expect(judgeRefusal(404, 200, [404], [201]).verdict).toBe('inconclusive');
  });
});

describe('expectRefusal on a check', () => {
  it('sends the control first and records nothing against a stated refusal', async () => {
    const { t, sent } = context({ '/probe': 422, '/control': 200 });
    const r = await expectRefusal(t, { probe: { path: '/probe' }, control: { path: '/control' }, expected: [422], what: 'the probe' });
    expect(r.verdict).toBe('refused');
    expect(sent).toEqual(['/control', '/probe']);
    expect([t.failures, t.unjudged]).toEqual([[], []]);
  });

  it('records a failure for a 200', async () => {
    const { t } = context({ '/probe': 200, '/control': 200 });
    await expectRefusal(t, { probe: { path: '/probe' }, control: { path: '/control' }, expected: [422], what: 'the probe' });
    expect(t.failures.map((f) => f.message)).toEqual(['the probe: answered 200, not 422']);
  });

  it('records the failed control as unjudged, with its status and message', async () => {
    const { t } = context({ '/probe': 406, '/control': 406 });
    await expectRefusal(t, { probe: { path: '/probe' }, control: { path: '/control' }, expected: [422], what: 'the probe' });
    expect(t.failures).toEqual([]);
    expect(t.unjudged.map((f) => f.message)).toEqual(['the probe: the control answered 406, not a 2xx, so the 406 shows nothing about the rule (message: said 406)']);
  });

  it('records a throttled probe as unjudged with the probe\'s message', async () => {
    const { t } = context({ '/probe': 429, '/control': 200 });
    await expectRefusal(t, { probe: { path: '/probe' }, control: { path: '/control' }, expected: [422], what: 'the probe' });
    expect(t.unjudged.map((f) => f.message)).toEqual(['the probe: answered 429 (throttled), which is not 422; try again later (message: said 429)']);
  });
});
