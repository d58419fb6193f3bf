/** Requests the code-scanning checks share: alert listings and journaled alert updates. */
import type { Reply } from '../core/client.js';
import type { TokenName } from '../core/profile.js';
import type { CheckContext } from '../core/suite.js';

export interface Alert {
  number: number;
  state: string;
  created_at: string;
  tool: { name: string; guid?: string | null };
  repository?: { full_name?: string } | string;
  most_recent_instance?: { ref?: string };
}

export interface AlertState { state: string; dismissed_by: unknown; dismissed_at: unknown; dismissed_reason: unknown }

/**
 * A listing of alerts, judged to be a 200 with an array. `reuse`: the listing is judged on its own
 * for what no request of the run changes (each alert's repository, ref and tool, the order of
 * creation), so one the run already read at this URL serves (the client's `reuse`): a dismissal
 * changes only an alert's state. A listing compared with pages read now is read afresh instead: a
 * live server's analyses may add alerts during a run.
 */
export async function alerts(t: CheckContext, path: string, reuse = false): Promise<{ reply: Reply; items: Alert[] } | undefined> {
  const reply = await t.request({ path, reuse });
  if (!t.expectStatus(reply, [200], `GET ${path}`)) return undefined;
  const items = t.body<Alert[]>(reply);
  if (!Array.isArray(items)) return (t.fail(`GET ${path} did not answer an array`), undefined);
  return { reply, items };
}

/**
 * A PATCH of an alert (as the classic token unless `as` says). Any but a reopen is journaled before it
 * is sent, so a dismissal is reopened at the end of the run; one that did not dismiss is settled as not made.
 */
export async function patchAlert(t: CheckContext, path: string, body: Record<string, unknown>, as?: TokenName): Promise<Reply> {
  const send = () => t.request({ method: 'PATCH', path, body, ...(as ? { as } : {}) });
  if (body.state === 'open') return send();
  const reopen = { method: 'PATCH', path, body: { state: 'open' }, ok: [200] };
  return t.journal.journaled(`alert ${path} dismissed`, [reopen], send, (r) => r.status === 200 && (r.json as AlertState | undefined)?.state === 'dismissed');
}
