/**
 * The Actions artifacts side of the fake GitHub (pass `artifactRoutes(store)` as its `routes`):
 * exactly what the real clients call, so the tests run @actions/github's Octokit and
 * @actions/artifact's DefaultArtifactClient unmodified against it.
 *
 * - REST, as the GITHUB_TOKEN reaches it (403 when `gh.forbid('artifacts')`): a workflow's runs
 *   (branch, event and status filters, newest first, paged), a run's artifacts (name filter), and
 *   an artifact's zip, which answers 302 to a blob URL on this server as GitHub does. As on GitHub,
 *   `branch=main` also lists a fork's pull_request runs whose head branch is called main: such a
 *   run carries the fork as its `head_repository` (see RunOptions.fork).
 * - The results service, as the runtime token reaches it (ACTIONS_RESULTS_URL): twirp JSON
 *   CreateArtifact / FinalizeArtifact, and the Azure block-blob upload in between (PUT comp=block,
 *   then comp=blocklist). The uploaded bytes become an artifact of the run the token names, so a
 *   push run's upload is what a later pull-request run downloads: a true round trip.
 * - The web page a comment links, `/<owner>/<repo>/actions/runs/<run>/artifacts/<id>` (what a
 *   reviewer clicks, on github.com rather than the API): 302 to the blob, which a zipped artifact
 *   answers as a download and an unzipped one as the file itself, in its own type, for the browser
 *   to show (GitHub's non-zipped artifacts). A link into another run's artifact is a 404.
 */
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { bodyJson, type FakeGitHub, type FakeRoute } from './fakeGitHub.js';

export interface FakeRun {
  id: number;
  run_number: number;
  workflow_id: number;
  /** `.github/workflows/<file>`: the runs API takes the file name in place of the id. */
  path: string;
  head_branch: string;
  head_sha: string;
  event: string;
  /** The repository the run's commit came from: this one, or a fork's (`someone/agent-fork`). */
  head_repository: { id: number; full_name: string };
  status: 'completed' | 'in_progress';
  conclusion: 'success' | 'failure' | null;
  created_at: string;
  html_url: string;
  /** The results service's id for the run, carried in the runtime token's `scp` claim. */
  backendId: string;
}

export interface FakeArtifact {
  id: number;
  name: string;
  runId: number;
  bytes: Buffer;
  contentType: string;
  expired: boolean;
  created_at: string;
  /** What the REST listing claims as `size_in_bytes` (default: the real length). */
  sizeInBytes?: number;
  /** Sent without a Content-Length (chunked), so only counting tells its size. */
  chunked?: boolean;
}

interface PendingUpload {
  runId: number;
  name: string;
  contentType: string;
  blocks: Map<string, Buffer>;
  bytes?: Buffer;
}

export interface FakeArtifactStore {
  owner: string;
  repo: string;
  runs: FakeRun[];
  artifacts: FakeArtifact[];
  /** Uploads between CreateArtifact and FinalizeArtifact, by blob key. */
  uploads: Map<string, PendingUpload>;
  nextId(): number;
}

export function createArtifactStore(options: { owner?: string; repo?: string } = {}): FakeArtifactStore {
  let id = 50_000;
  return {
    owner: options.owner ?? 'acme',
    repo: options.repo ?? 'agent',
    runs: [],
    artifacts: [],
    uploads: new Map(),
    nextId: () => ++id,
  };
}

/**
 * Forget every run, artifact and upload. @actions/github reads GITHUB_API_URL once, when it is
 * first imported, so a test file keeps one fake server and empties it between tests.
 */
export function resetArtifactStore(store: FakeArtifactStore): void {
  store.runs.length = 0;
  store.artifacts.length = 0;
  store.uploads.clear();
}

export interface RunOptions {
  branch?: string;
  conclusion?: FakeRun['conclusion'];
  workflowId?: number;
  workflowFile?: string;
  sha?: string;
  event?: string;
  /**
   * The run is a fork's (its `head_repository`): a pull_request run from `someone/agent-fork`,
   * whose branch may well be called main.
   */
  fork?: string;
}

/** The numeric id of this repository in the fake; a fork gets another. */
const REPO_ID = 1;
const FORK_ID = 2;

/** A workflow run, newer than every run added before it. */
export function addRun(store: FakeArtifactStore, options: RunOptions = {}): FakeRun {
  const id = store.nextId();
  const conclusion = options.conclusion === undefined ? 'success' : options.conclusion;
  const run: FakeRun = {
    id,
    run_number: store.runs.length + 1,
    workflow_id: options.workflowId ?? 77,
    path: `.github/workflows/${options.workflowFile ?? 'ci.yml'}`,
    head_branch: options.branch ?? 'main',
    head_sha: options.sha ?? id.toString(16).padStart(40, 'a'),
    event: options.event ?? (options.fork ? 'pull_request' : 'push'),
    head_repository: options.fork
      ? { id: FORK_ID, full_name: options.fork }
      : { id: REPO_ID, full_name: `${store.owner}/${store.repo}` },
    status: conclusion === null ? 'in_progress' : 'completed',
    conclusion,
    created_at: new Date(Date.UTC(2025, 0, 1) + store.runs.length * 60_000).toISOString(),
    html_url: `https://github.com/${store.owner}/${store.repo}/actions/runs/${id}`,
    backendId: randomUUID(),
  };
  store.runs.push(run);
  return run;
}

/** An artifact already on a run (a base-branch run from before the test started). */
export function seedArtifact(
  store: FakeArtifactStore,
  run: FakeRun,
  artifact: {
    name: string;
    bytes: Buffer | string;
    contentType?: string;
    expired?: boolean;
    sizeInBytes?: number;
    chunked?: boolean;
  },
): FakeArtifact {
  const stored: FakeArtifact = {
    id: store.nextId(),
    name: artifact.name,
    runId: run.id,
    bytes: Buffer.from(artifact.bytes),
    contentType: artifact.contentType ?? 'application/json',
    expired: artifact.expired ?? false,
    created_at: run.created_at,
    ...(artifact.sizeInBytes !== undefined ? { sizeInBytes: artifact.sizeInBytes } : {}),
    ...(artifact.chunked ? { chunked: true } : {}),
  };
  store.artifacts.push(stored);
  return stored;
}

/** An unsigned JWT with the `scp` claim getBackendIdsFromToken reads; nothing checks a signature. */
export function fakeRuntimeToken(run: FakeRun): string {
  const part = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
  const scp = `Actions.ExampleScope Actions.Results:${run.backendId}:${randomUUID()}`;
  return `${part({ alg: 'none', typ: 'JWT' })}.${part({ scp, exp: Math.floor(Date.now() / 1000) + 3600 })}.sig`;
}

/** The environment @actions/artifact reads to upload as `run`, pointed at the fake. */
export function artifactEnv(gh: FakeGitHub, run: FakeRun): Record<string, string> {
  return { ACTIONS_RUNTIME_TOKEN: fakeRuntimeToken(run), ACTIONS_RESULTS_URL: `${gh.url}/` };
}

const BLOB_PREFIX = '/devstoreaccount1/artifacts/';

function restArtifact(gh: FakeGitHub, a: FakeArtifact, runs: FakeRun[]) {
  const run = runs.find((r) => r.id === a.runId);
  return {
    id: a.id,
    node_id: `A_${a.id}`,
    name: a.name,
    size_in_bytes: a.sizeInBytes ?? a.bytes.length,
    url: `${gh.url}/repos/${gh.owner}/${gh.repo}/actions/artifacts/${a.id}`,
    archive_download_url: `${gh.url}/repos/${gh.owner}/${gh.repo}/actions/artifacts/${a.id}/zip`,
    expired: a.expired,
    created_at: a.created_at,
    updated_at: a.created_at,
    expires_at: a.expired ? '2000-01-01T00:00:00Z' : '2999-01-01T00:00:00Z',
    workflow_run: run
      ? {
          id: run.id,
          head_branch: run.head_branch,
          head_sha: run.head_sha,
          repository_id: REPO_ID,
          head_repository_id: run.head_repository.id,
        }
      : null,
  };
}

/** A minimal-repository as the runs API nests it. */
function restRepo(repo: { id: number; full_name: string }) {
  const [owner, name] = repo.full_name.split('/');
  return { id: repo.id, node_id: `R_${repo.id}`, name, full_name: repo.full_name, owner: { login: owner } };
}

function restRun(store: FakeArtifactStore, r: FakeRun) {
  const { backendId: _backendId, ...rest } = r;
  return {
    ...rest,
    name: 'CI',
    display_title: 'CI',
    node_id: `WFR_${r.id}`,
    repository: restRepo({ id: REPO_ID, full_name: `${store.owner}/${store.repo}` }),
    head_repository: restRepo(r.head_repository),
    head_repository_id: r.head_repository.id,
  };
}

/** A twirp error as the results service sends it. */
function twirpError(gh: FakeGitHub, res: ServerResponse, status: number, msg: string) {
  gh.json(res, status, { code: status === 404 ? 'not_found' : 'invalid_argument', msg });
}

function azureHeaders(extra: Record<string, string> = {}): Record<string, string> {
  return {
    'x-ms-request-id': randomUUID(),
    'x-ms-version': '2025-01-05',
    'x-ms-request-server-encrypted': 'true',
    date: new Date().toUTCString(),
    'content-length': '0',
    ...extra,
  };
}

export function artifactRoutes(store: FakeArtifactStore): FakeRoute[] {
  const repoPath = (p: string) => new RegExp(`^/repos/([^/]+)/([^/]+)${p}$`);
  const ours = (gh: FakeGitHub, m: RegExpMatchArray) => m[1] === gh.owner && m[2] === gh.repo;
  const notFound = (gh: FakeGitHub, res: ServerResponse) => gh.json(res, 404, { message: 'Not Found' });
  const runForBackend = (id: unknown) => store.runs.find((r) => r.backendId === id);
  // protobuf-ts writes StringValue wrappers as plain strings; accept the wrapped form as well.
  const str = (v: unknown) =>
    typeof v === 'string'
      ? v
      : typeof (v as { value?: unknown })?.value === 'string'
        ? String((v as { value: string }).value)
        : undefined;

  return [
    {
      method: 'GET',
      path: repoPath('/actions/workflows/([^/]+)/runs'),
      scope: 'artifacts',
      handle: (req, m, res, gh) => {
        if (!ours(gh, m)) return notFound(gh, res);
        const workflow = decodeURIComponent(m[3]!);
        const branch = req.url.searchParams.get('branch');
        const status = req.url.searchParams.get('status');
        const event = req.url.searchParams.get('event');
        const runs = store.runs
          .filter((r) => String(r.workflow_id) === workflow || r.path.split('/').pop() === workflow)
          // By the head branch's name alone, whichever repository it is in: GitHub's behaviour.
          .filter((r) => !branch || r.head_branch === branch)
          .filter((r) => !event || r.event === event)
          .filter((r) => !status || r.conclusion === status || r.status === status)
          .sort((a, b) => b.id - a.id)
          .map((r) => restRun(store, r));
        gh.page(req, res, runs, (p) => ({ total_count: runs.length, workflow_runs: p }));
      },
    },
    {
      method: 'GET',
      path: repoPath('/actions/runs/(\\d+)/artifacts'),
      scope: 'artifacts',
      handle: (req, m, res, gh) => {
        if (!ours(gh, m)) return notFound(gh, res);
        const runId = Number(m[3]);
        if (!store.runs.some((r) => r.id === runId)) return notFound(gh, res);
        const name = req.url.searchParams.get('name');
        const artifacts = store.artifacts
          .filter((a) => a.runId === runId && (!name || a.name === name))
          .map((a) => restArtifact(gh, a, store.runs));
        gh.page(req, res, artifacts, (p) => ({ total_count: artifacts.length, artifacts: p }));
      },
    },
    {
      method: 'GET',
      path: repoPath('/actions/artifacts/(\\d+)/zip'),
      scope: 'artifacts',
      handle: (_req, m, res, gh) => {
        if (!ours(gh, m)) return notFound(gh, res);
        const artifact = store.artifacts.find((a) => a.id === Number(m[3]));
        if (!artifact) return notFound(gh, res);
        if (artifact.expired) return gh.json(res, 410, { message: 'Artifact has expired' });
        res.writeHead(302, { location: `${gh.url}/blobs/${artifact.id}?sig=fake-download-signature` });
        res.end();
      },
    },
    {
      // The artifact's page on github.com, as a comment links it: the run and the id must agree.
      method: 'GET',
      path: /^\/([^/]+)\/([^/]+)\/actions\/runs\/(\d+)\/artifacts\/(\d+)$/,
      handle: (_req, m, res, gh) => {
        const artifact = store.artifacts.find((a) => a.id === Number(m[4]) && a.runId === Number(m[3]));
        if (!ours(gh, m) || !artifact) return notFound(gh, res);
        if (artifact.expired) return gh.json(res, 410, { message: 'Artifact has expired' });
        res.writeHead(302, { location: `${gh.url}/blobs/${artifact.id}?sig=fake-download-signature` });
        res.end();
      },
    },
    {
      // The signed download URL: the stored bytes, named as the download client expects; a zip is
      // a download, an unzipped file is shown by the browser.
      method: 'GET',
      path: /^\/blobs\/(\d+)$/,
      handle: (_req, m, res, gh) => {
        const artifact = store.artifacts.find((a) => a.id === Number(m[1]));
        if (!artifact) return notFound(gh, res);
        const zip = artifact.contentType === 'application/zip';
        const file = zip ? `${artifact.name}.zip` : artifact.name;
        res.writeHead(200, {
          'content-type': artifact.contentType,
          ...(artifact.chunked ? {} : { 'content-length': String(artifact.bytes.length) }),
          'content-disposition': `${zip ? 'attachment' : 'inline'}; filename="${file}"; filename*=UTF-8''${encodeURIComponent(file)}`,
        });
        // In pieces, as a blob store streams a large one.
        for (let at = 0; at < artifact.bytes.length; at += 64 * 1024)
          res.write(artifact.bytes.subarray(at, at + 64 * 1024));
        res.end();
      },
    },
    {
      method: 'POST',
      path: /^\/twirp\/github\.actions\.results\.api\.v1\.ArtifactService\/CreateArtifact$/,
      handle: (req, _m, res, gh) => {
        const body = bodyJson<Record<string, unknown>>(req);
        const run = runForBackend(body.workflowRunBackendId ?? body.workflow_run_backend_id);
        const name = str(body.name);
        if (!run || !name) return twirpError(gh, res, 400, 'unknown workflow run backend id or no name');
        if (store.artifacts.some((a) => a.runId === run.id && a.name === name))
          return twirpError(gh, res, 409, `an artifact named ${name} already exists for this run`);
        const key = randomUUID();
        store.uploads.set(key, {
          runId: run.id,
          name,
          contentType: str(body.mimeType ?? body.mime_type) ?? 'application/zip',
          blocks: new Map(),
        });
        gh.json(res, 200, {
          ok: true,
          signed_upload_url: `${gh.url}${BLOB_PREFIX}${key}?sig=fake-upload-signature`,
        });
      },
    },
    {
      method: 'PUT',
      path: new RegExp(`^${BLOB_PREFIX}([0-9a-f-]+)$`),
      handle: (req, m, res, gh) => {
        const upload = store.uploads.get(m[1]!);
        if (!upload) return notFound(gh, res);
        const comp = req.url.searchParams.get('comp');
        if (comp === 'block') {
          const blockId = req.url.searchParams.get('blockid');
          if (!blockId) return gh.json(res, 400, { message: 'blockid missing' });
          upload.blocks.set(blockId, req.body);
          res.writeHead(201, azureHeaders());
          return res.end();
        }
        if (comp === 'blocklist') {
          // <BlockList><Latest>id</Latest>…</BlockList>, in the order the blob is made of.
          const ids = [
            ...req.body.toString('utf8').matchAll(/<(?:Latest|Uncommitted|Committed)>([^<]*)</g),
          ].map((x) => x[1]!);
          const missing = ids.filter((id) => !upload.blocks.has(id));
          if (missing.length) return gh.json(res, 400, { message: `unknown blocks ${missing.join(', ')}` });
          upload.bytes = Buffer.concat(ids.map((id) => upload.blocks.get(id)!));
          res.writeHead(
            201,
            azureHeaders({
              etag: `"0x${Date.now().toString(16)}"`,
              'last-modified': new Date().toUTCString(),
            }),
          );
          return res.end();
        }
        // A single-shot upload (Put Blob), which the SDK uses for some sizes.
        upload.bytes = req.body;
        res.writeHead(
          201,
          azureHeaders({ etag: `"0x${Date.now().toString(16)}"`, 'last-modified': new Date().toUTCString() }),
        );
        res.end();
      },
    },
    {
      method: 'POST',
      path: /^\/twirp\/github\.actions\.results\.api\.v1\.ArtifactService\/FinalizeArtifact$/,
      handle: (req, _m, res, gh) => {
        const body = bodyJson<Record<string, unknown>>(req);
        const run = runForBackend(body.workflowRunBackendId ?? body.workflow_run_backend_id);
        const name = str(body.name);
        const entry = [...store.uploads.entries()].find(([, u]) => u.runId === run?.id && u.name === name);
        if (!run || !entry) return twirpError(gh, res, 404, 'no artifact upload to finalize');
        const [key, upload] = entry;
        if (!upload.bytes) return twirpError(gh, res, 400, 'the blob was never committed');
        store.uploads.delete(key);
        const artifact = seedArtifact(store, run, {
          name: upload.name,
          bytes: upload.bytes,
          contentType: upload.contentType,
        });
        gh.json(res, 200, { ok: true, artifact_id: String(artifact.id) });
      },
    },
  ];
}
