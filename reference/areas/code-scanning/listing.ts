/**
 * Alert listings: the filters, the sort, and pagination by page number or by the before/after
 * cursors the Link header hands out.
 */
import { VALIDATION_FAILED } from '../../../spec/vocabulary.js';
import { error, intParam, json, linkHeader, type HandlerContext, type HandlerResult } from '../../http.js';
import type { Repo } from '../../world.js';
import type { Alert } from './corpus.js';
import { renderAlert } from './render.js';

export interface Entry {
  repo: Repo;
  alert: Alert;
}

export interface ListOptions {
  /** Only alerts with an instance on this ref are listed (unless refFilter is off); it picks most_recent_instance. */
  ref: string;
  refFilter: boolean;
  withRepository: boolean;
}

/** refs/heads/<branch>, <branch> or refs/pull/<number>/merge, as a full ref name. */
export function normalizeRef(value: string): string {
  return value.startsWith('refs/') ? value : `refs/heads/${value}`;
}

const refuse = (field: string, message: string) => error(422, VALIDATION_FAILED, { errors: [{ resource: 'CodeScanningAlert', field, code: 'invalid', message }] });

/** A query parameter checked against the catalogue's enum; its stated default when absent. */
function choice(ctx: HandlerContext, name: string): string | HandlerResult | undefined {
  const param = ctx.endpoint.params.find((p) => p.name === name);
  const value = ctx.query.get(name);
  if (value === null) return param?.default;
  if (param?.enum && !param.enum.includes(value)) return refuse(name, `${name} must be one of ${param.enum.join(', ')}`);
  return value;
}

type Cursor = [key: number, repoId: number, number: number];
const encodeCursor = (c: Cursor) => Buffer.from(JSON.stringify(c)).toString('base64url');

function decodeCursor(value: string): Cursor | undefined {
  try {
    const c: unknown = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
    return Array.isArray(c) && c.length === 3 && c.every(Number.isInteger) ? (c as Cursor) : undefined;
  } catch {
    return undefined;
  }
}

export function listAlerts(ctx: HandlerContext, entries: readonly Entry[], opts: ListOptions): HandlerResult {
  const { query } = ctx;
  // Faults named alerts-org-* break a rule on the organization listing only; the others on both listings.
  const org = ctx.endpoint.id === 'code-scanning.org-alerts';
  const fault = (id: string) => ctx.fault(id) || (org && ctx.fault(id.replace(/^alerts-/, 'alerts-org-')));
  const state = choice(ctx, 'state');
  const sort = choice(ctx, 'sort');
  const direction = choice(ctx, 'direction');
  for (const v of [state, sort, direction]) if (typeof v === 'object') return v;
  if (query.has('tool_name') && query.has('tool_guid') && !fault('alerts-tool-filters-combined')) {
    return refuse('tool_guid', 'tool_name and tool_guid are mutually exclusive');
  }
  if (query.has('before') && query.has('after')) return refuse('after', 'before and after cannot be combined');
  const cursorParam = query.get('after') ?? query.get('before');
  const cursor = cursorParam === null ? undefined : decodeCursor(cursorParam);
  if (cursorParam !== null && !cursor) return refuse(query.has('after') ? 'after' : 'before', 'invalid cursor');

  const toolName = query.get('tool_name');
  const toolGuid = query.get('tool_guid');
  const matching = entries.filter(({ alert }) =>
    (!opts.refFilter || alert.instances.some((i) => i.ref === opts.ref)) &&
    (state === undefined || fault('alerts-state-filter-ignored') || alert.state === state) &&
    (toolName === null || fault('alerts-tool-name-ignored') || alert.tool.name === toolName) &&
    // An empty tool_guid asks for tools without a guid.
    (toolGuid === null || fault('alerts-tool-guid-ignored') || alert.tool.guid === (toolGuid === '' ? null : toolGuid)));

  const byUpdated = sort === 'updated' && !fault('alerts-sort-ignored');
  const sign = direction === 'asc' || fault('alerts-direction-ignored') ? 1 : -1;
  const keyOf = ({ alert }: Entry): Cursor => [byUpdated ? alert.updatedAt : alert.createdAt, alert.repoId, alert.number];
  const compare = (a: Cursor, b: Cursor) => sign * (a[0] - b[0] || a[1] - b[1] || a[2] - b[2]);
  const sorted = [...matching].sort((a, b) => compare(keyOf(a), keyOf(b)));

  const perPageCap = fault('alerts-per-page-uncapped') ? Number.POSITIVE_INFINITY : ctx.endpoint.perPage!.max;
  const defaultPerPage = fault('alerts-per-page-default-10') ? 10 : ctx.endpoint.perPage!.default!;
  const perPage = Math.min(Math.max(intParam(query.get('per_page'), defaultPerPage), 1), perPageCap);
  const render = (e: Entry) => renderAlert(ctx, e.repo, e.alert, { single: false, ref: opts.ref, withRepository: opts.withRepository });

  // An explicit page number without a cursor keeps page links; otherwise the Link header carries cursors.
  if (query.has('page') && !cursor) {
    const page = fault('alerts-page-ignored') ? 1 : Math.max(intParam(query.get('page'), 1), 1);
    const last = Math.max(Math.ceil(sorted.length / perPage), 1);
    const link = fault('alerts-no-link-header') ? '' : linkHeader(ctx.url, perPage, page, last);
    return json(200, sorted.slice((page - 1) * perPage, page * perPage).map(render), link ? { Link: link } : {});
  }

  let start = 0;
  let end = perPage;
  const before = query.has('before') && !fault('alerts-before-cursor-ignored');
  if (cursor && !fault('alerts-cursors-broken') && (before || query.has('after'))) {
    const indexFrom = (pred: (e: Entry) => boolean) => {
      const i = sorted.findIndex(pred);
      return i < 0 ? sorted.length : i;
    };
    if (query.has('after')) {
      start = indexFrom((e) => compare(keyOf(e), cursor) > 0);
      end = start + perPage;
    } else {
      end = indexFrom((e) => compare(keyOf(e), cursor) >= 0);
      start = Math.max(end - perPage, 0);
    }
  }
  const items = sorted.slice(start, end);
  const rels: string[] = [];
  const at = (param: 'after' | 'before', e: Entry) => {
    const u = new URL(ctx.url);
    for (const p of ['page', 'before', 'after']) u.searchParams.delete(p);
    u.searchParams.set('per_page', String(perPage));
    u.searchParams.set(param, encodeCursor(keyOf(e)));
    return u.toString();
  };
  if (start > 0 && items.length) rels.push(`<${at('before', items[0]!)}>; rel="prev"`);
  if (start + items.length < sorted.length && items.length) rels.push(`<${at('after', items[items.length - 1]!)}>; rel="next"`);
  return json(200, items.map(render), rels.length && !fault('alerts-no-link-header') ? { Link: rels.join(', ') } : {});
}
