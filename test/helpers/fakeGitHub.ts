/**
 * A stand-in for the GitHub REST API on 127.0.0.1, reached through GITHUB_API_URL: the endpoints
 * the Action uses (issue comments, check runs, pull requests, the token's identity through GraphQL
 * `viewer` and `GET /user`, and through `routes` the Actions artifacts and results service), with
 * GitHub's paging (per_page, page, Link headers), its 403 body, and a log of every request so
 * tests can check what was sent and that the token stayed out of it. It closes by itself after
 * `maxMs`.
 *
 * The token is `identity`: by default the workflow's GITHUB_TOKEN (`github-actions[bot]`, an
 * installation token, which `GET /user` refuses with 403). Comments it creates carry that author,
 * and editing a comment someone else wrote is refused with 403, as GitHub answered the
 * GITHUB_TOKEN when the Action tried.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeRequest {
  method: string;
  url: URL;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

export interface FakeRoute {
  method: string;
  path: RegExp;
  /** Which permission a 403 on this route stands for (see FakeGitHub.forbid). */
  scope?: Scope;
  handle(
    req: FakeRequest,
    match: RegExpMatchArray,
    res: ServerResponse,
    gh: FakeGitHub,
  ): void | Promise<void>;
}

export type Scope = 'comments' | 'checks' | 'artifacts' | 'pulls' | 'graphql' | 'contents';

/** Who the token is: an installation's bot (GITHUB_TOKEN, a GitHub App) or a person (a PAT). */
export interface FakeIdentity {
  login: string;
  type: 'Bot' | 'User';
  kind: 'installation' | 'user';
}

export const GITHUB_TOKEN_IDENTITY: FakeIdentity = {
  login: 'github-actions[bot]',
  type: 'Bot',
  kind: 'installation',
};

export interface FakeComment {
  id: number;
  body: string;
  user: { login: string; type: string };
  html_url: string;
  created_at: string;
  updated_at: string;
}

export interface FakeCheckRun {
  id: number;
  name: string;
  head_sha: string;
  status: string;
  conclusion?: string;
  output?: { title?: string; summary?: string; text?: string };
  annotations: Record<string, unknown>[];
  /** Annotations sent in each request, to check the batches of 50. */
  batches: number[];
}

export interface FakeGitHub {
  url: string;
  owner: string;
  repo: string;
  requests: FakeRequest[];
  comments: Map<number, FakeComment[]>;
  checkRuns: FakeCheckRun[];
  pulls: Map<number, Record<string, unknown>>;
  /**
   * The repository's files at each commit, keyed `<ref>:<path>` (the contents API: the base
   * branch's tracejury.yml the Action reads on a pull request).
   */
  files: Map<string, string>;
  /** Route families that answer 403 as a read-only token gets. */
  forbidden: Set<Scope>;
  /** Who the token is (GITHUB_TOKEN_IDENTITY unless a test says otherwise). */
  identity: FakeIdentity;
  nextId(): number;
  json(res: ServerResponse, status: number, value: unknown, headers?: Record<string, string>): void;
  /** One page of `items` as GitHub sends it, with the Link header pointing at the others. */
  page<T>(req: FakeRequest, res: ServerResponse, items: readonly T[], wrap?: (page: T[]) => unknown): void;
  close(): Promise<void>;
}

export interface FakeGitHubOptions {
  owner?: string;
  repo?: string;
  routes?: FakeRoute[];
  maxMs?: number;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

export function bodyJson<T = Record<string, unknown>>(req: FakeRequest): T {
  return JSON.parse(req.body.toString('utf8') || '{}') as T;
}

export async function startFakeGitHub(options: FakeGitHubOptions = {}): Promise<FakeGitHub> {
  const owner = options.owner ?? 'acme';
  const repo = options.repo ?? 'agent';
  let id = 1000;
  const gh = {
    url: '',
    owner,
    repo,
    requests: [] as FakeRequest[],
    comments: new Map<number, FakeComment[]>(),
    checkRuns: [] as FakeCheckRun[],
    pulls: new Map<number, Record<string, unknown>>(),
    files: new Map<string, string>(),
    forbidden: new Set<Scope>(),
    identity: GITHUB_TOKEN_IDENTITY,
    nextId: () => ++id,
    json(res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}) {
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
      res.end(JSON.stringify(value));
    },
    page<T>(req: FakeRequest, res: ServerResponse, items: readonly T[], wrap?: (page: T[]) => unknown) {
      const perPage = Math.min(100, Number(req.url.searchParams.get('per_page') ?? 30) || 30);
      const pageNo = Math.max(1, Number(req.url.searchParams.get('page') ?? 1) || 1);
      const last = Math.max(1, Math.ceil(items.length / perPage));
      const link = (p: number, rel: string) => {
        const u = new URL(req.url);
        u.searchParams.set('page', String(p));
        u.searchParams.set('per_page', String(perPage));
        return `<${u.toString()}>; rel="${rel}"`;
      };
      const links: string[] = [];
      if (pageNo < last) links.push(link(pageNo + 1, 'next'), link(last, 'last'));
      if (pageNo > 1) links.push(link(1, 'first'), link(pageNo - 1, 'prev'));
      const slice = items.slice((pageNo - 1) * perPage, pageNo * perPage);
      gh.json(res, 200, wrap ? wrap(slice) : slice, links.length ? { link: links.join(', ') } : {});
    },
    close: async () => {},
  } satisfies FakeGitHub as FakeGitHub;

  const base = `/repos/${owner}/${repo}`;
  const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const r = (p: string) => new RegExp(`^${esc(base)}${p}$`);

  const commentRoutes: FakeRoute[] = [
    {
      method: 'GET',
      path: r('/issues/(\\d+)/comments'),
      scope: 'comments',
      handle: (req, m, res) => gh.page(req, res, gh.comments.get(Number(m[1])) ?? []),
    },
    {
      method: 'POST',
      path: r('/issues/(\\d+)/comments'),
      scope: 'comments',
      handle: (req, m, res) => {
        const issue = Number(m[1]);
        const { body } = bodyJson<{ body?: string }>(req);
        if (typeof body !== 'string' || body.length > 65_536)
          return gh.json(res, 422, {
            message: 'Validation Failed',
            errors: [{ field: 'body', code: 'invalid' }],
          });
        const cid = gh.nextId();
        const now = new Date().toISOString();
        const comment: FakeComment = {
          id: cid,
          body,
          user: { login: gh.identity.login, type: gh.identity.type },
          html_url: `https://github.com/${owner}/${repo}/pull/${issue}#issuecomment-${cid}`,
          created_at: now,
          updated_at: now,
        };
        gh.comments.set(issue, [...(gh.comments.get(issue) ?? []), comment]);
        gh.json(res, 201, comment);
      },
    },
    {
      method: 'PATCH',
      path: r('/issues/comments/(\\d+)'),
      scope: 'comments',
      handle: (req, m, res) => {
        const cid = Number(m[1]);
        const comment = [...gh.comments.values()].flat().find((c) => c.id === cid);
        if (!comment) return gh.json(res, 404, { message: 'Not Found' });
        if (comment.user.login !== gh.identity.login)
          return gh.json(res, 403, { message: 'Resource not accessible by integration', status: '403' });
        const { body } = bodyJson<{ body?: string }>(req);
        if (typeof body !== 'string' || body.length > 65_536)
          return gh.json(res, 422, {
            message: 'Validation Failed',
            errors: [{ field: 'body', code: 'invalid' }],
          });
        comment.body = body;
        comment.updated_at = new Date().toISOString();
        gh.json(res, 200, comment);
      },
    },
    {
      // GET /repos/{owner}/{repo}/contents/{path}?ref=…: a file as the API gives it, base64.
      method: 'GET',
      path: r('/contents/(.+)'),
      scope: 'contents',
      handle: (req, m, res) => {
        const file = decodeURIComponent(m[1]!);
        const ref = req.url.searchParams.get('ref') ?? 'HEAD';
        const text = gh.files.get(`${ref}:${file}`);
        if (text === undefined)
          return gh.json(res, 404, {
            message: 'Not Found',
            documentation_url: 'https://docs.github.com/rest/repos/contents#get-repository-content',
            status: '404',
          });
        const content = Buffer.from(text, 'utf8').toString('base64');
        gh.json(res, 200, {
          type: 'file',
          encoding: 'base64',
          size: Buffer.byteLength(text),
          name: file.split('/').at(-1),
          path: file,
          content,
          sha: 'f'.repeat(40),
        });
      },
    },
    {
      method: 'GET',
      path: r('/pulls/(\\d+)'),
      scope: 'pulls',
      handle: (_req, m, res) => {
        const pull = gh.pulls.get(Number(m[1]));
        return pull ? gh.json(res, 200, pull) : gh.json(res, 404, { message: 'Not Found' });
      },
    },
  ];

  const identityRoutes: FakeRoute[] = [
    {
      // Only the query the Action sends: `query { viewer { login } }`.
      method: 'POST',
      path: /^\/graphql$/,
      scope: 'graphql',
      handle: (req, _m, res) => {
        const { query } = bodyJson<{ query?: string }>(req);
        if (!/\bviewer\s*\{\s*login\s*\}/.test(query ?? ''))
          return gh.json(res, 200, { errors: [{ message: `fake GitHub cannot answer ${query}` }] });
        gh.json(res, 200, { data: { viewer: { login: gh.identity.login } } });
      },
    },
    {
      method: 'GET',
      path: /^\/user$/,
      handle: (_req, _m, res) =>
        gh.identity.kind === 'installation'
          ? gh.json(res, 403, {
              message: 'Resource not accessible by integration',
              documentation_url: 'https://docs.github.com/rest/users/users#get-the-authenticated-user',
              status: '403',
            })
          : gh.json(res, 200, { login: gh.identity.login, id: 4242, type: gh.identity.type }),
    },
  ];

  const checkRoutes: FakeRoute[] = [
    {
      method: 'POST',
      path: r('/check-runs'),
      scope: 'checks',
      handle: (req, _m, res) => {
        const body = bodyJson<{
          name: string;
          head_sha: string;
          status?: string;
          conclusion?: string;
          output?: FakeCheckRun['output'] & { annotations?: Record<string, unknown>[] };
        }>(req);
        const annotations = body.output?.annotations ?? [];
        if (annotations.length > 50)
          return gh.json(res, 422, { message: 'Only 50 annotations are allowed per request' });
        const run: FakeCheckRun = {
          id: gh.nextId(),
          name: body.name,
          head_sha: body.head_sha,
          status: body.status ?? 'queued',
          ...(body.conclusion ? { conclusion: body.conclusion } : {}),
          ...(body.output ? { output: { title: body.output.title, summary: body.output.summary } } : {}),
          annotations: [...annotations],
          batches: [annotations.length],
        };
        gh.checkRuns.push(run);
        gh.json(res, 201, { id: run.id, html_url: `https://github.com/${owner}/${repo}/runs/${run.id}` });
      },
    },
    {
      method: 'PATCH',
      path: r('/check-runs/(\\d+)'),
      scope: 'checks',
      handle: (req, m, res) => {
        const run = gh.checkRuns.find((c) => c.id === Number(m[1]));
        if (!run) return gh.json(res, 404, { message: 'Not Found' });
        const body = bodyJson<{
          status?: string;
          conclusion?: string;
          output?: FakeCheckRun['output'] & { annotations?: Record<string, unknown>[] };
        }>(req);
        const annotations = body.output?.annotations ?? [];
        if (annotations.length > 50)
          return gh.json(res, 422, { message: 'Only 50 annotations are allowed per request' });
        run.annotations.push(...annotations);
        run.batches.push(annotations.length);
        if (body.status) run.status = body.status;
        if (body.conclusion) run.conclusion = body.conclusion;
        gh.json(res, 200, { id: run.id });
      },
    },
  ];

  const routes = [...commentRoutes, ...identityRoutes, ...checkRoutes, ...(options.routes ?? [])];
  const server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', gh.url);
      const fake: FakeRequest = {
        method: req.method ?? 'GET',
        url,
        headers: req.headers,
        body: await readBody(req),
      };
      gh.requests.push(fake);
      for (const route of routes) {
        if (route.method !== fake.method) continue;
        const m = url.pathname.match(route.path);
        if (!m) continue;
        if (route.scope && gh.forbidden.has(route.scope))
          return gh.json(res, 403, {
            message: 'Resource not accessible by integration',
            documentation_url: 'https://docs.github.com/rest',
            status: '403',
          });
        return await route.handle(fake, m, res, gh);
      }
      gh.json(res, 404, { message: `Not Found (fake GitHub has no ${fake.method} ${url.pathname})` });
    } catch (err) {
      gh.json(res, 500, { message: String(err) });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  gh.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const timer = setTimeout(() => server.close(), options.maxMs ?? 120_000);
  timer.unref();
  gh.close = () =>
    new Promise<void>((resolve) => {
      clearTimeout(timer);
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return gh;
}
