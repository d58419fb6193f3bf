/**
 * How much of the transcript report.json and report.html keep. A whole run's exchanges weigh tens of
 * megabytes, nearly all of them of checks that passed; by default only the exchanges a reader needs
 * are kept: those of failing and warning checks, and, when the run stopped, the setup's own probes.
 * The result is already redacted, so bodies are cut after redaction, never before.
 */
import type { ExchangeRecord, RunResult } from '../core/model.js';

export const TRANSCRIPT_SCOPES = ['failing', 'all'] as const;
export type TranscriptScope = (typeof TRANSCRIPT_SCOPES)[number];

/** Characters of a body (as pretty-printed JSON, or text) kept by default; the HTML report shows as many. */
export const KEPT_BODY_CHARS = 20_000;

interface Cut {
  body: unknown;
  bodyOmitted?: number;
}

function cut(body: unknown): Cut {
  const text = typeof body === 'string' ? body : JSON.stringify(body, null, 2);
  return text.length > KEPT_BODY_CHARS ? { body: text.slice(0, KEPT_BODY_CHARS), bodyOmitted: text.length - KEPT_BODY_CHARS } : { body };
}

function cutExchange(e: ExchangeRecord): ExchangeRecord {
  const { body: sent, ...request } = e.request;
  return {
    ...e,
    request: { ...request, ...(sent !== undefined ? cut(sent) : {}) },
    ...(e.response ? { response: { status: e.response.status, headers: e.response.headers, ...(e.response.body !== undefined ? cut(e.response.body) : {}) } } : {}),
  };
}

export function boundTranscript(result: RunResult, scope: TranscriptScope): RunResult {
  if (scope === 'all') return result;
  const needed = new Set(result.checks.filter((c) => c.outcome === 'fail' || c.outcome === 'warn').flatMap((c) => c.exchanges));
  const byChecks = new Set(result.checks.flatMap((c) => c.exchanges));
  const kept = result.transcript.filter((e) => needed.has(e.id) || (result.stopped && !byChecks.has(e.id))).map(cutExchange);
  return { ...result, transcript: kept, transcriptKept: { scope, omitted: result.transcript.length - kept.length, bodyChars: KEPT_BODY_CHARS } };
}
