/** Latency and fault injection: the configured delays, the configured share of faults, reproducible from the seed. */
import { describe, expect, it } from 'vitest';
import { Chaos } from '../../proxy/chaos.js';

const req = { method: 'GET', path: '/search/issues' };
const outcomes = (chaos: Chaos, session: string, n: number) => Array.from({ length: n }, () => chaos.fault(session, req)?.status ?? 200);

describe('chaos', () => {
  it('delays by a fixed time, by the recorded duration, or not at all', () => {
    expect(new Chaos({ latency: 250 }).delayMs(40)).toBe(250);
    expect(new Chaos({ latency: 'recorded' }).delayMs(40)).toBe(40);
    expect(new Chaos({}).delayMs(40)).toBe(0);
  });

  it('answers the fault status to about the configured share of requests, with a JSON message', () => {
    const chaos = new Chaos({ fault: { status: 503, rate: 0.25, seed: 7 } });
    const seen = outcomes(chaos, 'default', 4000);
    const share = seen.filter((s) => s === 503).length / seen.length;
    expect(share).toBeGreaterThan(0.22);
    expect(share).toBeLessThan(0.28);
    let fault;
    while (!(fault = chaos.fault('default', req)));
    expect(fault.headers['content-type']).toMatch(/^application\/json/);
    const { message } = JSON.parse(fault.body!.toString()) as { message: string };
    expect(message).toContain('GET /search/issues');
    expect(message).toContain('503');
  });

  it('repeats the same faults for the same seed and session, whatever other sessions do', () => {
    const options = { fault: { status: 500, rate: 0.5, seed: 42 } };
    const a = new Chaos(options);
    const b = new Chaos(options);
    outcomes(b, 'noise', 17);
    expect(outcomes(a, 'test-1', 50)).toEqual(outcomes(b, 'test-1', 50));
    expect(outcomes(new Chaos({ fault: { status: 500, rate: 0.5, seed: 43 } }), 'test-1', 50)).not.toEqual(outcomes(new Chaos(options), 'test-1', 50));
  });

  it('never or always faults at the ends of the range', () => {
    expect(outcomes(new Chaos({ fault: { status: 500, rate: 0 } }), 's', 100)).not.toContain(500);
    expect(new Set(outcomes(new Chaos({ fault: { status: 429, rate: 1 } }), 's', 100))).toEqual(new Set([429]));
  });

  it('refuses settings that make no sense', () => {
    expect(() => new Chaos({ fault: { status: 1000, rate: 0.1 } })).toThrow(/status/);
    expect(() => new Chaos({ fault: { status: 503, rate: 1.5 } })).toThrow(/rate/);
    expect(() => new Chaos({ latency: -1 })).toThrow(/latency/);
  });
});
