// Every relative link and image in the project's markdown resolves: to a file or folder of the
// repository, and a `#anchor` to a heading of the target file (GitHub's slugs) or an explicit
// `<a id>`. Checked: README.md, CHANGELOG.md, ARCHITECTURE.md and docs/**/*.md (not
// docs/templates/, whose links are checked in the pages generated from them).
//   node scripts/check-links.mjs   prints `file:line: link: what is wrong` and exits 1 on any.
// Links to web addresses are not fetched: CI must not depend on other sites being up.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const ATX_HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const SETEXT_UNDERLINE = /^ {0,3}(=+|-+)[ \t]*$/;
/** `[text](target "title")` and `![alt](target)`; the text may hold one level of brackets. */
const INLINE_LINK =
  /!?\[(?:[^[\]]|\[[^\]]*\])*\]\(\s*(<[^>]*>|[^\s)]+)(?:\s+(?:"[^"]*"|'[^']*'|\([^)]*\)))?\s*\)/g;
const REFERENCE_DEFINITION = /^ {0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)/;
const HTML_LINK = /<(?:a|img)\b[^>]*?\b(?:href|src)\s*=\s*(?:"([^"]*)"|'([^']*)')/gi;
const HTML_ANCHOR = /<a\b[^>]*?\b(?:id|name)\s*=\s*(?:"([^"]*)"|'([^']*)')/gi;
const SCHEME = /^[a-z][a-z\d+.-]*:/i;

/** Inline code spans blanked out (same length), so a link shown as code is not a link. */
function withoutCode(line) {
  return line.replace(/(`+)[\s\S]*?\1/g, (m) => ' '.repeat(m.length));
}

/** Each line of the file outside fenced code blocks, with its 1-based number. */
function proseLines(markdown) {
  const out = [];
  let fence;
  markdown.split('\n').forEach((line, i) => {
    const opening = FENCE.exec(line)?.[1];
    if (fence) {
      if (opening && opening[0] === fence[0] && opening.length >= fence.length && line.trim() === opening)
        fence = undefined;
      return;
    }
    if (opening) {
      fence = opening;
      return;
    }
    out.push({ line: i + 1, text: line });
  });
  return out;
}

/** A heading's text as GitHub renders it: links, images, HTML and emphasis markers gone, code kept. */
function headingText(raw) {
  return raw
    .split(/(`+[^`]*`+)/)
    .map((part, i) =>
      i % 2 === 1
        ? part.replace(/^`+|`+$/g, '')
        : part
            .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
            .replace(/\[([^\]]*)\]\[[^\]]*\]/g, '$1')
            .replace(/<[^>]+>/g, '')
            .replace(/\*+/g, '')
            .replace(/(^|[^\p{L}\p{N}])_+([^_]+?)_+(?=[^\p{L}\p{N}]|$)/gu, '$1$2'),
    )
    .join('')
    .trim();
}

/**
 * GitHub's anchor for a heading (github-slugger): lower case, every character that is not a
 * letter, mark, digit, connector (`_`), hyphen or space removed, spaces turned into hyphens.
 */
export function githubSlug(text) {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors a markdown file defines: heading slugs (repeats get -1, -2, …) and `<a id>`/`<a name>`. */
export function anchorsOf(markdown) {
  const anchors = new Set();
  const seen = new Map();
  const addHeading = (text) => {
    const base = githubSlug(headingText(text));
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  };
  const lines = proseLines(markdown);
  lines.forEach(({ text }, i) => {
    const atx = ATX_HEADING.exec(text);
    if (atx) addHeading(atx[2] ?? '');
    const previous = lines[i - 1];
    if (
      SETEXT_UNDERLINE.test(text) &&
      previous &&
      previous.line === lines[i].line - 1 &&
      /^ {0,3}[^\s#>|*+\-=`]/.test(previous.text) &&
      !/^ {0,3}\d+[.)]\s/.test(previous.text)
    ) {
      addHeading(previous.text);
    }
    for (const m of text.matchAll(HTML_ANCHOR)) anchors.add(m[1] ?? m[2]);
  });
  return anchors;
}

/** The links and images of a markdown file that point into the repository, with their lines. */
export function relativeLinksOf(markdown) {
  const links = [];
  for (const { line, text } of proseLines(markdown)) {
    const prose = withoutCode(text);
    const targets = [
      ...[...prose.matchAll(INLINE_LINK)].map((m) => m[1]),
      ...[...prose.matchAll(HTML_LINK)].map((m) => m[1] ?? m[2]),
      ...(REFERENCE_DEFINITION.exec(prose) ? [REFERENCE_DEFINITION.exec(prose)[1]] : []),
    ];
    for (const raw of targets) {
      const target = raw.replace(/^<|>$/g, '');
      if (target === '' || SCHEME.test(target) || target.startsWith('//')) continue;
      links.push({ line, target });
    }
  }
  return links;
}

/** Files and folders of the repository: tracked or new, not ignored (build/ is not in a clone). */
export function gitFileSet(root) {
  const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  })
    .split('\0')
    .filter((f) => f && existsSync(path.join(root, f)));
  const entries = new Set(files);
  for (const f of files)
    for (let d = path.posix.dirname(f); d !== '.'; d = path.posix.dirname(d)) entries.add(d);
  return (relative) => relative === '' || entries.has(relative);
}

/** Any existing file or folder under root (for a folder that is not a repository). */
function fsFileSet(root) {
  return (relative) => existsSync(path.join(root, relative));
}

/**
 * Problems with the relative links of `files` (paths relative to `root`), each
 * `{ file, line, target, message }`. `exists` says whether a path relative to root is in the
 * repository (default: on disk).
 */
export function checkLinks({ root, files, exists = fsFileSet(root) }) {
  const problems = [];
  const anchorCache = new Map();
  const anchorsIn = (relative) => {
    if (!anchorCache.has(relative))
      anchorCache.set(relative, anchorsOf(readFileSync(path.join(root, relative), 'utf8')));
    return anchorCache.get(relative);
  };
  for (const file of files) {
    for (const { line, target } of relativeLinksOf(readFileSync(path.join(root, file), 'utf8'))) {
      const problem = (message) => problems.push({ file, line, target, message });
      const hashAt = target.indexOf('#');
      const pathPart = hashAt === -1 ? target : target.slice(0, hashAt);
      const anchor = hashAt === -1 ? undefined : target.slice(hashAt + 1);
      let decoded;
      try {
        decoded = decodeURIComponent(pathPart.split('?')[0]);
      } catch {
        problem('not a valid URL path');
        continue;
      }
      const resolved =
        decoded === ''
          ? file
          : decoded.startsWith('/')
            ? path.posix.normalize(decoded.slice(1))
            : path.posix.normalize(path.posix.join(path.posix.dirname(file), decoded));
      const inRepo = resolved.replace(/\/$/, '').replace(/^\.$/, '');
      if (inRepo.startsWith('..')) {
        problem('points outside the repository');
        continue;
      }
      if (!exists(inRepo)) {
        problem(`no file or folder ${inRepo} in the repository`);
        continue;
      }
      if (
        anchor === undefined ||
        anchor === '' ||
        !/\.md$/i.test(inRepo) ||
        statSync(path.join(root, inRepo)).isDirectory()
      )
        continue;
      const wanted = decodeURIComponent(anchor).toLowerCase();
      if (!anchorsIn(inRepo).has(wanted)) problem(`no heading with the anchor #${wanted} in ${inRepo}`);
    }
  }
  return problems;
}

/** The markdown files the project keeps true: README.md, CHANGELOG.md, ARCHITECTURE.md, docs/ (templates aside). */
export function projectMarkdownFiles(root, exists = gitFileSet(root)) {
  const listed = execFileSync(
    'git',
    ['ls-files', '--cached', '--others', '--exclude-standard', '-z', '--', '*.md'],
    {
      cwd: root,
      encoding: 'utf8',
    },
  )
    .split('\0')
    .filter(Boolean);
  return listed.filter(
    (f) =>
      exists(f) &&
      existsSync(path.join(root, f)) &&
      (['README.md', 'CHANGELOG.md', 'ARCHITECTURE.md'].includes(f) ||
        (f.startsWith('docs/') && !f.startsWith('docs/templates/'))),
  );
}

function main() {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const exists = gitFileSet(root);
  const files = projectMarkdownFiles(root, exists);
  const problems = checkLinks({ root, files, exists });
  for (const p of problems) console.error(`${p.file}:${p.line}: ${p.target}: ${p.message}`);
  if (problems.length > 0) {
    console.error(`${problems.length} broken relative link(s) in ${files.length} markdown files`);
    process.exit(1);
  }
  console.log(`+ relative links: ${files.length} markdown files, every link resolves`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
