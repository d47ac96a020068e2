/**
 * What stands around a request to the reader and settles it (readerRequests.ts): a fake system
 * block, a TODO note, alarm, urgency, a model-like name it is addressed to, an override however it is
 * spelt. Regexes over one sentence and the two lines before it.
 */
import { isNearOneOf } from './nearWords.js';

/**
 * A fake system or admin block: "###(system_message)", "[SYSTEM]", "<|system|>", "SYSTEM NOTE:" —
 * the system or admin role in brackets or a chat-template token at the start of a line, or a role
 * notice opening a line. "John Smith (Developer)", a table cell "| Admin |", a variable named
 * `system_prompt` or a prompt template's <system> tag is not one.
 */
export const FAKE_SYSTEM =
  /(?:^|\n)[\s#*>=-]{0,6}(?:<\|\s?(?:system|admin)\s?\|>|[([{]\s?(?:system|admin)(?:[\s_-]?(?:message|msg|prompt|note|notice|instructions?|override|directive))?\s?[)\]}])|(?:^|\n)[\s#*>=-]{0,6}(?:system|admin|developer)\s(?:message|prompt|note|notice|instructions?|override|alert|directive)\s?[:!]/;
/** A TODO note at a line start, not inside a code comment ("# TODO", "// TODO" are a programmer's). */
export const TODO = /(?:^|\n)[ \t]*(?:[*>-][ \t]?)?(?:todo|to-do|to\sdo)\s?[:!-]/;
/**
 * Alarm: "IMPORTANT!!!", "URGENT!!", an <INFORMATION>-style tag around instructions (not the tags of
 * a prompt template, <instructions> or <system>, which a harness's own files are full of).
 */
export const ALARM =
  /(?:important|urgent|attention|warning|critical|alert)\s?!{2,}|<\/?(?:information|important|urgent)>/;
export const URGENCY =
  /\b(?:immediately|right\snow|right\saway|asap|at\sonce|without\sdelay|urgently|this\sis\s(?:extremely\s|very\s)?important)\b/;
/** "from me, Emma, to you, Nova-2": one author addressing the reader by name. */
export const FROM_ME_TO_YOU = /\bfrom\sme,?\s[^\n,.!?]{1,40},\sto\syou,?\s[^\n.!?]{1,40}/;
/** "to you, <a model-like name>", "for you, <…>" / "<a model-like name>, <request>": see isModelLikeName. */
const TO_YOU_NAME = /\b(?:to|for)\syou,\s([^\n,.!?]{1,40})/i;
/** A name and a comma opening a sentence ("Command R+, …"); a colon makes a label ("Version 2.0: …"). */
export const HEAD_NAME = /^([A-Za-z0-9][\w.+-]*(?:\s[\w.+-]+){0,3})\s?,\s/;

/** Words a model is called by: its role, and what model names are made of. */
const MODEL_ROLE_WORDS = new Set([
  'ai',
  'assistant',
  'model',
  'agent',
  'bot',
  'chatbot',
  'llm',
  'copilot',
  'gpt',
  'claude',
  'gemini',
  'llama',
]);

/**
 * A name that looks like a model's, whoever made it: a role word ("assistant", "AI", "agent"), or
 * a name with a version in it ("GPT-4o", "Qwen2.5", "Llama 3", "Command R+", "DeepSeek-V3").
 * People's names carry no digits or plus signs; product names that do are rarely addressed.
 */
export function isModelLikeName(name: string): boolean {
  const words = name.trim().split(/\s+/);
  if (words.length === 0 || words.length > 4) return false;
  const isVersion = (w: string) => /^v?\d+(?:\.\d+)*[a-z]?$/i.test(w);
  // A name is capitalised (its version aside): "start at line 0" is no one's name.
  if (!words.every((w) => /^[A-Z0-9]/.test(w) || isVersion(w) || MODEL_ROLE_WORDS.has(w.toLowerCase())))
    return false;
  for (const w of words) {
    const lower = w.toLowerCase().replace(/[^a-z0-9+.-]/g, '');
    if (MODEL_ROLE_WORDS.has(lower)) return true;
    if (/[a-z]/.test(lower) && (/[0-9]/.test(lower) || lower.endsWith('+'))) return true;
    if (/^[a-z]{1,3}\+$|^[a-z]+-?v[0-9]/.test(lower)) return true;
  }
  // A name followed by its version: "Falcon-Mini 2", "Nova 1.5".
  return words.length > 1 && isVersion(words.at(-1)!);
}

const OVERRIDE_VERBS = ['ignore', 'disregard', 'forget', 'override'];
/** What an override sets aside: "previous", "prior", "above" instructions. */
const OVERRIDE_WHICH = [
  'previous',
  'prior',
  'above',
  'earlier',
  'original',
  'initial',
  'preceding',
  'system',
];
const OVERRIDE_OBJECTS = [
  'instructions',
  'instruction',
  'prompts',
  'prompt',
  'rules',
  'guidelines',
  'directions',
  'directives',
];

/**
 * "Ignore your previous instructions" however it is spelt: an override verb, then within five words
 * which instructions ("previous", "prior", "above" …) and then the instructions themselves, each word
 * allowed a misspelling (nearWords.ts). The catalogue's io.ignore_previous, read tolerantly.
 */
export function overrides(words: readonly string[]): boolean {
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (w.length < 5 || !'idfo'.includes(w[0]!) || !isNearOneOf(w, OVERRIDE_VERBS)) continue;
    let which = false;
    for (let j = i + 1; j <= i + 5 && j < words.length; j++) {
      const o = words[j]!;
      if (o.length < 4) continue;
      if (!which && isNearOneOf(o, OVERRIDE_WHICH)) which = true;
      else if (which && isNearOneOf(o, OVERRIDE_OBJECTS)) return true;
    }
  }
  return false;
}

/** "to you, <model-like name>" anywhere in the text given. */
export function toYouModel(text: string): boolean {
  const m = TO_YOU_NAME.exec(text);
  return m !== null && isModelLikeName(m[1]!);
}

/** The last two lines of a text (what stands right before a sentence). */
export function lastLines(text: string): string {
  const cut = text.lastIndexOf('\n', text.length - 2);
  const from = cut < 0 ? 0 : text.lastIndexOf('\n', cut - 1);
  return text.slice(Math.max(0, from));
}
