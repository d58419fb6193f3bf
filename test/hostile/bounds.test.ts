/**
 * The suite's client against hostile targets: an answer is read within a size, a whole time and a
 * JSON depth, so an endless, trickling or absurdly nested body costs a bounded while and memory.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { vendorNames } from '../../spec/vendor.js';
import { MAX_JSON_DEPTH, MB } from '../../core/bounds.js';
import { Client, TargetUnreachable } from '../../core/client.js';
import { deepJson, endless, hostileServer, trickle, within, type Hostile } from './helpers.js';

const TOTAL_MS = 1500;

let target: Hostile;
let client: Client;
beforeAll(async () => {
  target = await hostileServer((req, res) => {
    const json = (text: string) => res.writeHead(200, { 'content-type': 'application/json' }).end(text);
    switch (req.url) {
      case '/endless': return endless(res);
      case '/trickle': return trickle(res, 200);
      // A JSON string of exactly 1 MB, and one byte more.
      case '/at-limit': return json(`"${'a'.repeat(MB - 2)}"`);
      case '/over-limit': return json(`"${'a'.repeat(MB - 1)}"`);
      case '/deep': return json(deepJson(100_000));
      case '/at-depth': return json(deepJson(MAX_JSON_DEPTH));
      case '/brackets-in-strings': return json(JSON.stringify({ text: `${'[{'.repeat(1000)}\\"[` }));
      default: return json('{}');
    }
  });
  client = new Client({ profile: { base_url: target.url }, names: vendorNames('service'), timeoutMs: 10_000, totalTimeoutMs: TOTAL_MS, maxBodyBytes: MB, maxRequests: 100 }, []);
});
afterAll(() => target.close());

const get = (path: string) => client.send({ path, as: null });

/** The request's error, and that the target's answer was closed (not read on) soon after. */
async function refused(path: string): Promise<string> {
  const sent = target.closed.length;
  const err = await within(get(path).then(() => undefined, (e: unknown) => e), 10_000, `the client giving up on ${path}`);
  expect(err).toBeInstanceOf(TargetUnreachable);
  await within(target.closed[sent]!, 5_000, `the target's answer to ${path} closing`);
  expect(client.transcript.at(-1)?.error).toBeDefined();
  return (err as Error).message;
}

describe('an answer body', () => {
  it('that never ends is given up at the size limit, naming it, and its connection closed', async () => {
    expect(await refused('/endless')).toMatch(/^GET http:\/\/\S+\/endless: answer body larger than the limit of 1 MB \(--max-body\)$/);
  });

  it('of exactly the limit is read whole; one byte more is refused', async () => {
    expect((await get('/at-limit')).text).toHaveLength(MB);
    expect(await refused('/over-limit')).toContain('answer body larger than the limit of 1 MB');
  });
});

describe('an answer trickling a byte at a time', () => {
  it('is given up at the total time limit though it is never silent, naming the limit', async () => {
    const started = performance.now();
    expect(await refused('/trickle')).toMatch(new RegExp(`/trickle: no complete answer within ${TOTAL_MS} ms$`));
    expect(performance.now() - started).toBeGreaterThanOrEqual(TOTAL_MS - 50);
  });
});

describe('a JSON body nested deeper than the depth limit', () => {
  it('is not parsed: the reply says it nests too deep, naming the limit, and the transcript keeps it as text', async () => {
    const r = await get('/deep');
    expect(r.json).toBeUndefined();
    expect(r.jsonError).toMatch(new RegExp(`^body nests arrays or objects deeper than ${MAX_JSON_DEPTH} levels, the client's limit; starts with "\\[\\[\\[`));
    const record = client.transcript.find((x) => x.id === r.exchange)!;
    expect(typeof record.response?.body).toBe('string');
    expect(() => JSON.stringify(client.transcript)).not.toThrow();
  });

  it('is parsed at the limit itself, kept whole in the transcript, and brackets inside strings do not count', async () => {
    const at = await get('/at-depth');
    expect(at.jsonError).toBeUndefined();
    // The redactor walks as deep as the client parses: a body it parsed is not cut in the report.
    expect(client.transcript.find((x) => x.id === at.exchange)!.response?.body).toEqual(JSON.parse(deepJson(MAX_JSON_DEPTH)));
    const strings = await get('/brackets-in-strings');
    expect(strings.jsonError).toBeUndefined();
    expect(strings.json).toEqual({ text: `${'[{'.repeat(1000)}\\"[` });
  });
});
