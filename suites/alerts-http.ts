/** Requests the code-scanning checks share: alert listings and journaled alert updates. */
import type { Reply } from '../src/client.js';
import type { TokenName } from '../src/profile.js';
import type { CheckContext } from '../src/suite.js';

export interface Alert {
  number: number;
  state: string;
  created_at: string;
  tool: { name: string; guid?: string | null };
  repository?: { full_name?: string } | string;
  most_recent_instance?: { ref?: string };
}

export interface AlertState { state: string; dismissed_by: unknown; dismissed_at: unknown; dismissed_reason: unknown }

export async function alerts(t: CheckContext, path: string): Promise<{ reply: Reply; items: Alert[] } | undefined> {
  const reply = await t.request({ path });
  if (!t.expectStatus(reply, [200], `GET ${path}`)) return undefined;
  const items = t.body<Alert[]>(reply);
  if (!Array.isArray(items)) return (t.fail(`GET ${path} did not answer an array`), undefined);
  return { reply, items };
}

/** A PATCH of an alert (as the classic token unless `as` says); an admitted dismissal is journaled, so the alert is reopened at the end of the run. */
export async function patchAlert(t: CheckContext, path: string, body: object, as?: TokenName): Promise<Reply> {
  const r = await t.request({ method: 'PATCH', path, body, ...(as ? { as } : {}) });
  if (r.status === 200 && (r.json as AlertState | undefined)?.state === 'dismissed') {
    t.journal.record(`alert ${path} dismissed`, async () => {
      const back = await t.client.send({ method: 'PATCH', path, body: { state: 'open' } });
      if (back.status !== 200) throw new Error(`reopening answered ${back.status}`);
    });
  }
  return r;
}
