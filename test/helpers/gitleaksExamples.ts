/**
 * A true-positive example of every rule (every branch) tracejury takes from gitleaks' default set,
 * built from the rule's own regex in the pinned toml. gitleaks keeps its examples in Go test
 * generators, not in the toml, so each example here is drawn from the pattern itself: literal
 * characters as written (in a mixed case where the rule ignores case), class characters picked by
 * a seeded generator (the same example every run, varied enough to pass the rule's entropy),
 * each repeat at its least count (one where it may be absent, so optional parts are exercised),
 * and, for a rule gitleaks runs only on text holding one of its keywords, that keyword before it.
 * `secret` is the part of the example a surface must not show: the rule's value, or the whole
 * credential.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'smol-toml';
import { classifyRule } from '../../scripts/secret-rules/classify.mjs';
import type { Alt, Node } from '../../scripts/secret-rules/re2.mjs';
import { VENDOR_DIR } from '../../scripts/write-secret-rules.mjs';
import { mulberry32 } from '../../src/diff/prng.js';

export interface RuleExample {
  id: string;
  /** Which branch of the rule (most rules have one). */
  branch: number;
  text: string;
  secret: string;
}

const PERL: Record<string, string> = {
  w: 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_',
  d: '0123456789',
  s: ' ',
};
const PRINTABLE = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).join('');

function classChars(node: Extract<Node, { type: 'class' }>): string {
  let chars = '';
  for (const { from, to } of node.ranges)
    for (let c = from; c <= to && c < 0x7f; c++) {
      const ch = String.fromCharCode(c);
      chars += ch;
      if (node.fold && /[a-z]/i.test(ch))
        chars += ch === ch.toLowerCase() ? ch.toUpperCase() : ch.toLowerCase();
    }
  for (const p of node.perl) chars += PERL[p.toLowerCase()] ?? '';
  // Letters and digits first: an example of base64 or hex, not of punctuation.
  const plain = [...new Set(chars)].filter((c) => /[A-Za-z0-9]/.test(c)).join('');
  if (node.negated)
    return [...PRINTABLE].filter((c) => !chars.includes(c) && /[A-Za-z0-9]/.test(c)).join('') || '!';
  return plain || [...new Set(chars)].filter((c) => c !== '\n' && c !== '\r').join('') || chars;
}

function generate(nodes: readonly Node[], random: () => number, secretOut: { secret?: string }): string {
  let out = '';
  const one = (node: Node): string => {
    switch (node.type) {
      case 'lit': {
        const ch = String.fromCodePoint(node.code);
        return node.fold && random() < 0.5
          ? ch === ch.toLowerCase()
            ? ch.toUpperCase()
            : ch.toLowerCase()
          : ch;
      }
      case 'class': {
        const chars = classChars(node);
        return chars[Math.floor(random() * chars.length)]!;
      }
      case 'perl':
        return node.value === node.value.toLowerCase()
          ? PERL[node.value]![Math.floor(random() * PERL[node.value]!.length)]!
          : '#';
      case 'any':
        // gitleaks writes `hooks.slack.com` with bare dots; a real URL has dots there.
        return '.';
      case 'assert':
        return '';
      case 'group': {
        const text = generate(node.body.alternatives[0]!, random, secretOut);
        if (node.secret) secretOut.secret = text;
        return text;
      }
      case 'repeat': {
        const count = node.min > 0 ? node.min : Math.min(node.max, 1);
        let text = '';
        for (let i = 0; i < count; i++) text += one(node.body);
        return text;
      }
    }
  };
  for (const node of nodes) out += one(node);
  return out;
}

/** Every rule taken, every branch: an example built from its regex. */
export function gitleaksExamples(): RuleExample[] {
  const toml = parse(readFileSync(path.join(VENDOR_DIR, 'gitleaks.toml'), 'utf8')) as unknown as {
    rules: { id: string; regex?: string; path?: string; keywords?: string[]; entropy?: number }[];
  };
  const examples: RuleExample[] = [];
  toml.rules.forEach((rule, r) => {
    const decision = classifyRule(rule);
    decision.patterns?.forEach((pattern, b) => {
      const marked = markSecret(pattern.branch, pattern.secret);
      const secretOut: { secret?: string } = {};
      const generated = generate(marked, mulberry32(1000 * r + b + 1), secretOut);
      // gitleaks runs a keyword-gated rule only on text holding a keyword; so does tracejury.
      const gated = !pattern.anchors.some((a) => new RegExp(a).test(generated));
      const text = gated ? `${rule.keywords![0]} ${generated}` : generated;
      examples.push({ id: rule.id, branch: b, text, secret: secretOut.secret ?? generated });
    });
  });
  return examples;
}

function markSecret(branch: readonly Node[], secret: Node | undefined): Node[] {
  return branch.map((n) => (n === secret ? { ...(n as Extract<Node, { type: 'group' }>), secret: true } : n));
}

export type { Alt };
