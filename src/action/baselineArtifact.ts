/**
 * The report inside a base-branch run's artifact, read within one limit: MAX_BASELINE_BYTES.
 *
 * Whoever wrote the artifact decides its size, and a baseline is only worth its deltas: a 4 MB zip
 * that unpacks to 4 GiB, or a report too long for one JavaScript string (`RangeError: Invalid
 * string length`), must cost the comparison, never the step. So the limit is checked three times:
 * against the artifact's `size_in_bytes` before anything is downloaded, against the bytes as they
 * stream in (a Content-Length over it is refused unread), and for a zipped artifact against the
 * report entry's stated size before it is unpacked and its real bytes as they are (yauzl checks
 * that an entry inflates to exactly the size its header states).
 *
 * @actions/artifact's downloadArtifact is not used for this: it streams to disk through
 * unzip-stream with no size limit. The download is GitHub's documented one (the artifact's `zip`
 * URL answers 302 to a signed blob URL, fetched without the token, as that client does), and a zip
 * is never extracted: only its one top-level JSON entry is read into memory. An artifact with an
 * entry whose name climbs out of its directory (`../`, an absolute path, a backslash) or with a
 * symbolic link is refused whole, as tampered with.
 */
import { HttpClient } from '@actions/http-client';
import { createWriteStream } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import yauzl from 'yauzl';
import { formatBytes } from '../util/bytes.js';
import type { Octokit } from './deps.js';
import { httpFailureOf } from './githubError.js';

/**
 * The most a baseline may weigh, downloaded or unpacked: 256 MiB. A report is a few KiB per trace,
 * so this is tens of thousands of traces; past it the run goes on without deltas.
 */
export const MAX_BASELINE_BYTES = 256 * 1024 * 1024;

/** A blob store that sends nothing for this long has stalled. */
const STALL_MS = 30_000;

export interface ArtifactRef {
  id: number;
  name: string;
  size_in_bytes: number;
}

export interface ReadArtifactArgs {
  octokit: Octokit;
  repo: { owner: string; repo: string };
  artifact: ArtifactRef;
  /** A fresh directory the download is written to. */
  dir: string;
  maxBytes: number;
}

/** The report's text, or why there is none (said after "the report artifact of run #n: "). */
export type ArtifactText = { text: string } | { problem: string };

/** `its download is 300 MiB, over the 256 MiB…`, or, counted as it came, `…went past the 256 MiB…`. */
const tooBig = (what: string, bytes: number | undefined, maxBytes: number): { problem: string } => ({
  problem:
    bytes !== undefined
      ? `${what} is ${formatBytes(bytes)}, over the ${formatBytes(maxBytes)} a baseline may weigh`
      : `${what} went past the ${formatBytes(maxBytes)} a baseline may weigh`,
});

class OverLimit extends Error {}

export async function readReportArtifact(args: ReadArtifactArgs): Promise<ArtifactText> {
  const { artifact, maxBytes } = args;
  if (artifact.size_in_bytes > maxBytes) return tooBig('it', artifact.size_in_bytes, maxBytes);

  let location: string | undefined;
  try {
    const { headers } = await args.octokit.rest.actions.downloadArtifact({
      ...args.repo,
      artifact_id: artifact.id,
      archive_format: 'zip',
      request: { redirect: 'manual' },
    });
    location = headers.location;
  } catch (err) {
    const failure = httpFailureOf(err);
    if (!failure) throw err;
    const advice =
      failure.status === 403 || failure.status === 404 ? ' (the job needs `permissions: actions: read`)' : '';
    return { problem: `cannot download it: ${failure.status} ${failure.message}${advice}` };
  }
  if (!location) return { problem: 'cannot download it: GitHub gave no download address' };

  const downloaded = await download(location, args.dir, artifact.name, maxBytes);
  if ('problem' in downloaded) return downloaded;
  return downloaded.zip
    ? await reportFromZip(downloaded.file, maxBytes)
    : // Within the limit, so within what one string can hold.
      { text: await readFile(downloaded.file, 'utf8') };
}

/** The blob, streamed to `dir`, counted as it comes; the signed URL needs no token, and gets none. */
async function download(
  url: string,
  dir: string,
  name: string,
  maxBytes: number,
): Promise<{ file: string; zip: boolean } | { problem: string }> {
  const client = new HttpClient('tracejury-action', [], { socketTimeout: STALL_MS });
  let response;
  try {
    response = await client.get(url);
  } catch (err) {
    return { problem: `cannot download it: ${(err as Error).message}` };
  }
  const message = response.message;
  if (message.statusCode !== 200) {
    message.resume();
    return { problem: `cannot download it: the blob store answered ${message.statusCode}` };
  }
  const mime = String(message.headers['content-type'] ?? '')
    .split(';')[0]!
    .trim()
    .toLowerCase();
  // What @actions/artifact takes for a zip: these types, or a blob path ending in .zip.
  const zip =
    ['application/zip', 'application/x-zip-compressed', 'application/zip-compressed'].includes(mime) ||
    new URL(url).pathname.toLowerCase().endsWith('.zip');
  const declared = Number(message.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    message.destroy();
    return tooBig('its download', declared, maxBytes);
  }
  const file = path.join(dir, path.basename(name) + (zip ? '.zip' : ''));
  let size = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (size > maxBytes) done(new OverLimit());
      else done(null, chunk);
    },
  });
  try {
    await pipeline(message, counter, createWriteStream(file));
  } catch (err) {
    await rm(file, { force: true });
    if (err instanceof OverLimit) return tooBig('its download', undefined, maxBytes);
    return { problem: `the download broke off: ${(err as Error).message}` };
  }
  return { file, zip };
}

/** Unix file type bits of a zip entry made on Unix: a symbolic link is 0o120000. */
function isSymlink(entry: yauzl.Entry): boolean {
  return entry.versionMadeBy >> 8 === 3 && ((entry.externalFileAttributes >>> 16) & 0o170000) === 0o120000;
}

/** The next central-directory entry, or undefined at the end (lazyEntries mode). */
function nextEntry(zip: yauzl.ZipFile): Promise<yauzl.Entry | undefined> {
  return new Promise((resolve, reject) => {
    const cleanup = () => {
      zip.off('entry', onEntry);
      zip.off('end', onEnd);
      zip.off('error', onError);
    };
    const onEntry = (entry: yauzl.Entry) => (cleanup(), resolve(entry));
    const onEnd = () => (cleanup(), resolve(undefined));
    const onError = (err: Error) => (cleanup(), reject(err));
    zip.on('entry', onEntry);
    zip.on('end', onEnd);
    zip.on('error', onError);
    zip.readEntry();
  });
}

/**
 * The one JSON file at the top of a zipped artifact. Only the central directory is read until that
 * entry is chosen; then it alone is inflated, into memory, within the limit.
 */
async function reportFromZip(file: string, maxBytes: number): Promise<ArtifactText> {
  let zip: yauzl.ZipFile;
  try {
    // strictFileNames: a backslash in a name is an error, as `../` and absolute paths are.
    zip = await yauzl.openPromise(file, { lazyEntries: true, autoClose: false, strictFileNames: true });
  } catch (err) {
    return { problem: `it is not a zip file that can be read: ${(err as Error).message}` };
  }
  try {
    const reports: yauzl.Entry[] = [];
    for (let entry = await nextEntry(zip); entry; entry = await nextEntry(zip)) {
      if (isSymlink(entry))
        return { problem: `it holds a symbolic link, ${entry.fileName}: refused as tampered with` };
      const topLevelJson = !entry.fileName.includes('/') && entry.fileName.toLowerCase().endsWith('.json');
      if (topLevelJson) reports.push(entry);
    }
    if (reports.length !== 1)
      return {
        problem:
          reports.length === 0
            ? 'it holds no .json file'
            : `it holds ${reports.length} .json files: ${reports.map((e) => e.fileName).join(', ')}`,
      };
    const entry = reports[0]!;
    if (entry.uncompressedSize > maxBytes)
      return tooBig(`its ${entry.fileName} unpacked`, entry.uncompressedSize, maxBytes);
    const chunks: Buffer[] = [];
    let size = 0;
    const stream = await zip.openReadStreamPromise(entry);
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      size += chunk.length;
      // yauzl already stops an entry at its stated size; this holds whatever it does.
      if (size > maxBytes) {
        stream.destroy();
        return tooBig(`its ${entry.fileName} unpacked`, undefined, maxBytes);
      }
      chunks.push(chunk);
    }
    return { text: Buffer.concat(chunks, size).toString('utf8') };
  } catch (err) {
    // A name that climbs out (`invalid relative path: ../x`), a lying size, a broken stream.
    return { problem: `it is refused as a zip: ${(err as Error).message}` };
  } finally {
    zip.close();
  }
}
