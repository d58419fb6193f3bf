/**
 * Negative checks. A refusal counts only when the same request without the element under test
 * succeeds (the control), and only when it is the refusal the spec states: a server that refuses
 * everything, or refuses the media type, has not shown it enforces the rule.
 */
import type { Reply, RequestOptions } from './client.js';
import type { CheckContext } from './suite.js';

/** Answers that are never the refusal a negative check looks for: content negotiation and throttling. */
const NEVER_THE_REFUSAL = [406, 415, 429] as const;
/** Answers that say nothing about the request's content: throttled, or unavailable for a while. */
const TRANSIENT = [429, 503] as const;

export type RefusalVerdict = 'refused' | 'not-refused' | 'inconclusive';

export interface RefusalJudgement {
  verdict: RefusalVerdict;
  /** Why, for the report; empty when refused. */
  reason: string;
  /** Whose answer the reason is about, so the report can quote that answer's message. */
  about: 'probe' | 'control';
}

const is2xx = (status: number) => status >= 200 && status < 300;

/** The refusal wanted, in words: the stated statuses, or "a 4xx other than 406, 415 or 429". */
function describeRefusal(expected?: readonly number[]): string {
  return expected ? expected.join(' or ') : `a 4xx other than ${NEVER_THE_REFUSAL.join(', ')}`;
}

/**
 * The verdict on a probe given its control. An admitted probe breaks the rule whatever the control
 * got. Any other answer needs a successful control to mean anything; with one, a throttled or
 * unavailable probe (429, 503) is still unjudged, and every other answer than the stated refusal
 * (406, 415, 500, another 4xx) is the server's answer to the element under test, so it fails.
 */
export function judgeRefusal(
  probe: number, control: number, expected?: readonly number[], success?: readonly number[], transient: readonly number[] = TRANSIENT,
): RefusalJudgement {
  const wanted = describeRefusal(expected);
  if (probe < 400) return { verdict: 'not-refused', reason: `answered ${probe}, not ${wanted}`, about: 'probe' };
  const controlOk = success ? success.includes(control) : is2xx(control);
  if (!controlOk) {
    return { verdict: 'inconclusive', reason: `the control answered ${control}, not ${success ? success.join(' or ') : 'a 2xx'}, so the ${probe} shows nothing about the rule`, about: 'control' };
  }
  const stated = probe < 500 && !(NEVER_THE_REFUSAL as readonly number[]).includes(probe) && (expected ?? [probe]).includes(probe);
  if (stated) return { verdict: 'refused', reason: '', about: 'probe' };
  if (transient.includes(probe)) return { verdict: 'inconclusive', reason: `answered ${probe} (${probe === 429 ? 'throttled' : 'unavailable'}), which is not ${wanted}; try again later`, about: 'probe' };
  return { verdict: 'not-refused', reason: `answered ${probe}, not ${wanted}`, about: 'probe' };
}

export interface RefusalProbe {
  /** The request with the element under test, or its reply when the check had to send it itself. */
  probe: RequestOptions | Reply;
  /** The same request without that element, or its reply; a request is sent before the probe. */
  control: RequestOptions | Reply;
  /** The statuses the spec states for this refusal; omitted where it states none (any 4xx but 406, 415, 429). */
  expected?: readonly number[];
  /** What the control must answer; default any 2xx. */
  success?: readonly number[];
  /** Answers left unjudged even after a good control; default 429 and 503. The rate-limit check, where a 429 is the answer under test, gives none. */
  transient?: readonly number[];
  /** The probe in words, e.g. "six operators". */
  what: string;
  /** Where the spec states the refusal, when the check's own sentence does not: quoted in a failure. */
  source?: string;
}

export interface RefusalOutcome extends RefusalJudgement {
  probe: Reply;
  control: Reply;
}

const isReply = (x: RequestOptions | Reply): x is Reply => typeof (x as Reply).status === 'number';
const message = (r: Reply) => {
  const m = (r.json as { message?: unknown } | undefined)?.message;
  return typeof m === 'string' ? ` (message: ${m})` : '';
};

/**
 * Sends the control, then the probe, and records the verdict on the check: a failure when the
 * probe was not refused as stated, an unjudged finding (the check is skipped as inconclusive)
 * when the control failed or the probe was throttled. Returns the verdict, so the check can look
 * further at a refusal (its message, a header).
 */
export async function expectRefusal(t: CheckContext, spec: RefusalProbe): Promise<RefusalOutcome> {
  const control = isReply(spec.control) ? spec.control : await t.request(spec.control);
  const probe = isReply(spec.probe) ? spec.probe : await t.request(spec.probe);
  const judgement = judgeRefusal(probe.status, control.status, spec.expected, spec.success, spec.transient);
  const said = `${spec.what}: ${judgement.reason}${message(judgement.about === 'control' ? control : probe)}`;
  if (judgement.verdict === 'not-refused') t.fail(`${said}${spec.source ? ` (${spec.source})` : ''}`);
  if (judgement.verdict === 'inconclusive') t.inconclusive(said);
  return { ...judgement, probe, control };
}
