/**
 * Latency and fault injection in replay, for testing a client's patience and resilience. Faults
 * are drawn from a seeded generator, one stream per session, so a test sees the same faults on
 * every run and parallel sessions do not shift each other's draws.
 */
import { STATUS_CODES } from 'node:http';
import { jsonAnswer, type Answer } from './answer.js';

export interface FaultOptions {
  /** Status code answered instead of the fixture. */
  status: number;
  /** Share of requests that get it, from 0 to 1. */
  rate: number;
  seed?: number;
}

export interface ChaosOptions {
  /** Delay before each answer: fixed milliseconds, or `recorded` to replay the upstream's recorded duration. */
  latency?: number | 'recorded';
  fault?: FaultOptions;
}

export class Chaos {
  private readonly streams = new Map<string, () => number>();

  constructor(private readonly options: ChaosOptions) {
    const { latency, fault } = options;
    if (typeof latency === 'number' && !(Number.isFinite(latency) && latency >= 0)) throw new Error(`latency must be a number of milliseconds >= 0 or "recorded", not ${latency}`);
    if (fault && !(Number.isInteger(fault.status) && fault.status >= 100 && fault.status <= 599)) throw new Error(`fault status must be an HTTP status code, not ${fault.status}`);
    if (fault && !(fault.rate >= 0 && fault.rate <= 1)) throw new Error(`fault rate must lie between 0 and 1, not ${fault.rate}`);
  }

  /** Milliseconds to wait before answering a fixture recorded with the given duration. */
  delayMs(recordedMs: number): number {
    const { latency } = this.options;
    if (latency === 'recorded') return Math.max(recordedMs, 0);
    return latency ?? 0;
  }

  /** The injected answer for this request of the session, or undefined when it is served normally. */
  fault(session: string, request: { method: string; path: string }): Answer | undefined {
    const fault = this.options.fault;
    if (!fault || fault.rate === 0) return undefined;
    const seed = fault.seed ?? 0;
    let draw = this.streams.get(session);
    if (!draw) {
      draw = mulberry32(fnv1a(`${seed}\u0000${session}`));
      this.streams.set(session, draw);
    }
    if (draw() >= fault.rate) return undefined;
    const message = `${fault.status} ${STATUS_CODES[fault.status] ?? 'Error'}: fault injected by the replay proxy into ${request.method} ${request.path} `
      + `(${Math.round(fault.rate * 100)}% of requests, seed ${seed})`;
    return jsonAnswer(fault.status, { message });
  }
}

function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** A small, well-distributed 32-bit generator: uniform in [0, 1). */
function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
