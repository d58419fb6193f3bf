/**
 * Answers captured from the replaying proxy, as a file the bare server reads: the comparison
 * servers send the very bytes the proxy sends (status, headers, body) for the same request.
 */
export interface Captured {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

export function writeAnswers(answers: ReadonlyMap<string, Captured>): string {
  return JSON.stringify([...answers].map(([path, a]) => [path, { status: a.status, headers: a.headers, body: a.body.toString('base64') }]));
}

export function readAnswers(text: string): Map<string, Captured> {
  const rows = JSON.parse(text) as [string, { status: number; headers: Record<string, string>; body: string }][];
  return new Map(rows.map(([path, a]) => [path, { ...a, body: Buffer.from(a.body, 'base64') }]));
}
