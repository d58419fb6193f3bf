/**
 * `--log` on the reference and the proxy: one line on stderr per request, so a user sees what a
 * client asked and whether it matched. The request's path and query come from the network (a
 * query string may carry a token), so each line goes through the one redactor and is made inert.
 */
import { terminalText } from './inert.js';
import { Redactor } from './redact/redactor.js';

export interface RequestRecord {
  method: string;
  /** Path and query string as the client sent them. */
  url: string;
  status: number;
  /** How it was answered: `fixture <file>`, `miss`, `recorded`, `endpoint <id>`... */
  outcome: string;
  ms: number;
}

export type RequestLog = (record: RequestRecord) => void;

/** `GET /search/issues?q=x 200 fixture get-search-issues-1a2b-000.json 3 ms`, redacted and inert. */
function requestLine(record: RequestRecord, redactor: Redactor): string {
  const { method, url, status, outcome, ms } = record;
  return terminalText(redactor.text(`${method} ${url} ${status} ${outcome} ${Math.round(ms)} ms`));
}

/** A log writing each request's line to stderr. */
export function stderrLog(redactor: Redactor = new Redactor()): RequestLog {
  return (record) => process.stderr.write(`${requestLine(record, redactor)}\n`);
}
