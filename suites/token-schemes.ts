/**
 * "Both `Bearer <TOKEN>` and `token <TOKEN>` are accepted": the same request with the classic token
 * in each scheme. Whichever scheme reaches the success is the other's control; neither reaching it
 * judges nothing.
 */
import type { Reply, RequestOptions } from '../core/client.js';
import type { CheckContext } from '../core/suite.js';

const SCHEMES = ['Bearer', 'token'] as const;
const SOURCE = 'Authentication: both `Bearer <TOKEN>` and `token <TOKEN>` are accepted';

/**
 * A request that prepares what a check judges (whether an import exists, a preference to write back),
 * not one it judges: where the run's scheme is refused with 401, it is sent once more in the other
 * stated scheme, so a scheme refused on one endpoint leaves that endpoint's own check something to judge.
 */
export async function setupRequest(t: CheckContext, req: RequestOptions): Promise<Reply> {
  const reply = await t.request(req);
  if (reply.status !== 401 || req.as !== undefined || !t.client.tokenValue('classic')) return reply;
  return t.request({ ...req, as: { raw: `${t.client.scheme === 'Bearer' ? 'token' : 'Bearer'} ${t.client.tokenValue('classic')!}` } });
}

export async function compareSchemes(t: CheckContext, req: RequestOptions, success: number, line: string): Promise<void> {
  const token = t.client.tokenValue('classic')!;
  const replies = [];
  for (const scheme of SCHEMES) replies.push({ scheme, reply: await t.request({ ...req, as: { raw: `${scheme} ${token}` } }) });
  const reached = replies.find((r) => r.reply.status === success);
  if (!reached) {
    return t.inconclusive(`${line} answered ${replies.map((r) => `${r.reply.status} with "${r.scheme} <TOKEN>"`).join(' and ')}, never ${success}, so no scheme reached the endpoint`);
  }
  for (const { scheme, reply } of replies) {
    if (reply.status === success) continue;
    if (reply.status === 429 || reply.status === 503) {
      t.inconclusive(`${line} with "${scheme} <TOKEN>" answered ${reply.status}, throttled or unavailable; try again later`);
      continue;
    }
    const m = (reply.json as { message?: unknown } | undefined)?.message;
    t.fail(`${line} with "${scheme} <TOKEN>" answered ${reply.status}${typeof m === 'string' ? ` (message: ${m})` : ''}, while "${reached.scheme} <TOKEN>" answered ${success} (${SOURCE})`);
  }
}
