/**
 * The shapes of a sentence that say what it asks of its reader (readerRequests.ts): what it refers
 * to (the reader's answer or code, an address, a language, the reader's work), and the shapes of
 * text that asks things of people rather than of a model (list items, comments, table rows, talk
 * among people, a document pointing at itself). Regexes over one lowercase sentence, bounded by
 * MAX_SENTENCE_CHARS: none runs over a whole text.
 */

/** The reader's answer: "your response", "the assistant's reply", "in your answer". */
export const ANSWER_REF =
  /\b(?:your|the\s(?:assistant|ai|model|chatbot|bot)(?:['’]s)?)\s(?:(?:final|next|own|entire|whole|upcoming|generated|subsequent|current|every)\s)?(?:responses?|answers?|repl(?:y|ies)|summar(?:y|ies)|explanations?|translations?|elucidations?|completions?)\b/;
/**
 * Parts of an answer that count only when the request transforms them ("scramble your message",
 * "encode your output"): "sanitize your output" in an issue template means a program's output.
 */
export const ANSWER_PART_REF =
  /\b(?:your|the)\s(?:(?:final|next|own|entire|whole)\s)?(?:message|text|words|sentences|paragraphs|writing|letters|output)\b/;
/** Verbs that transform an answer's text rather than ask for a document. */
export const TRANSFORMS = new Set([
  'encode',
  'encrypt',
  'misspell',
  'scramble',
  'jumble',
  'shuffle',
  'rearrange',
  'reorder',
  'reverse',
  'group',
  'combine',
  'substitute',
  'swap',
  'replace',
  'remove',
  'convert',
  'render',
  'translate',
  'capitalize',
  'capitalise',
  'uppercase',
  'lowercase',
  'spell',
  'abbreviate',
  'format',
  'rewrite',
]);
/** The reader's code: "your implementation", "the code you develop", "your codebase". */
export const CODE_REF =
  /\b(?:your|the\scode\syou|the\s(?:final\s)?(?:solution|program|script)\syou)\s?(?:(?:own|entire|whole|final|current|new)\s)?(?:code\s?base|code|solution|implementation|program|script|algorithm|function|project|application|app|module|software|framework|architecture|logic|approach|repository|repo|build|source|develop|write|produce|create|build|generate)\b/;
/** A code block offered to the reader: "the following code block", "the below snippet". */
export const CODE_OFFER =
  /\b(?:following|below|subsequent|next|attached|provided|given|above)\s(?:\S{1,20}\s)?(?:code|snippet|script|block|excerpt|section|lines?|function|module)s?\b/;
/** Something an action through tools can be aimed at: an e-mail address, a link, an account. */
export const TARGET =
  /[a-z0-9._%+-]{1,64}@[a-z0-9-]{1,63}(?:\.[a-z0-9-]{1,63}){0,4}\.[a-z]{2,24}|(?:https?:\/\/|www\.)[a-z0-9-]{1,63}(?:\.[a-z0-9-]{1,63}){1,5}|\b[a-z0-9-]{2,40}\.(?:com|org|net|io|xyz|co|info|biz|ru|cn)\b|\b[a-z]{2}[0-9]{2}[a-z0-9]{10,30}\b|\b0x[0-9a-f]{40}\b|\+?[0-9][0-9 -]{8,16}[0-9]\b/;
/**
 * A request whose object is a language ("… in Japanese?", "translate … to French"): it asks for the
 * reader's words in another language, which says what it wants even when it names nothing else.
 */
export const TO_LANGUAGE = new RegExp(
  String.raw`\b(?:in|into|to)\s(?:${[
    'english',
    'french',
    'spanish',
    'german',
    'italian',
    'portuguese',
    'dutch',
    'swedish',
    'norwegian',
    'danish',
    'finnish',
    'polish',
    'czech',
    'russian',
    'ukrainian',
    'greek',
    'turkish',
    'arabic',
    'hebrew',
    'persian',
    'hindi',
    'bengali',
    'urdu',
    'chinese',
    'mandarin',
    'cantonese',
    'japanese',
    'korean',
    'vietnamese',
    'thai',
    'indonesian',
    'malay',
    'swahili',
    'latin',
    'esperanto',
    'pig\\slatin',
    'morse\\scode',
    'binary',
    'base64',
    'hexadecimal',
    'leetspeak',
    'emojis?',
  ].join('|')})\b`,
);
/** A request to stop the reader's work: its object is the work, not a thing in the world. */
export const STOP_WORK =
  /^(?:stop|halt|cease|quit|abort|pause|suspend|terminate|end)\s(?:(?:all|any|every|everything|whatever|what|the|your|this|current|further|ongoing)\s){0,3}(?:you(?:['’]re|\sare)\s(?:doing|working)|work(?:ing)?|tasks?|requests?|operations?|actions?|activit(?:y|ies)|process(?:ing)?|execution|conversation|session|assistance|everything|now|immediately|right\s(?:now|away|here)|here)\b/;
export const DO_NOT_GO_ON =
  /^(?:do\snot|don['’]t|never|you\s(?:must|should)\snot|you\s(?:mustn['’]t|shouldn['’]t))\s(?:(?:continue|proceed|go\son|carry\son|complete|finish|perform|execute|do\sanything|take\sany)\b|(?:answer|respond\sto|reply\sto|help\swith|assist\swith|work\son)\s(?:the\s|this\s|any\s|their\s|your\s)?(?:user|question|request|task|query|original))/;
export const REFUSE = /^refuse\s(?:to\s)?(?:answer|respond|help|continue|complete|do|assist)\b/;
/** "your code should …", "your response must …": the reader's output as the subject of a duty. */
export const OUTPUT_MUST =
  /^(?:your|the)\s(?:\S{1,15}\s)?(?:code|response|answer|reply|solution|implementation|output)\s(?:should|must|needs?\sto|has\sto|could|would|will|shall|ought\sto)\b/;
/** "In your response, …": a clause placing the request in the reader's answer. */
export const IN_YOUR_ANSWER =
  /^(?:in|within|throughout|when\swriting|when\sgiving)\s(?:your|the)\s(?:responses?|answers?|repl(?:y|ies)|outputs?|code|solution|implementation)\s?,?\s/;

/**
 * A line of a list ("- Prepare the handover", "2. Add the onions"): plans, checklists and recipes
 * are imperatives written for whoever carries them out, not requests slipped to a model.
 */
const isListItem = (raw: string) => /^\s*(?:[-*•+]|\d{1,3}[.)]|[a-z][.)])\s/.test(raw);
/** A comment in code ("# invoke the attributes …", "// TODO"), a heading ("# Install"). */
const isComment = (raw: string) => /^\s*(?:#{1,6}|\/\/|\/\*|\*|--|;)\s/.test(raw);
/** A list item or a comment: imperatives there are written for a person, not slipped to a model. */
export const aside = (line: string) => isListItem(line) || isComment(line);

/**
 * A request written to people in a conversation rather than to an assistant: it speaks of its writer
 * ("my mug", "our team") or to a group ("has anyone seen…", "can everybody…"). A question
 * how to do something ("How do I …?") is asked of whoever knows, and stays.
 */
export const speaksToPeople = (lower: string) =>
  /\b(?:my|mine|we|our|ours|us|anyone|anybody|everyone|everybody|someone|somebody|guys|folks|y['’]all)\b/.test(
    lower,
  );

/**
 * A document pointing at itself ("show this email at the desk", "print this page"): it speaks to its
 * human reader about the document in hand.
 */
export const pointsAtItself = (lower: string) =>
  /\bthis\s(?:e-?mail|message|letter|page|document|link|invoice|receipt|notice|form|ticket|voucher|coupon|code)\b/.test(
    lower,
  );

/**
 * A request about the reader's answer that also asks for something of the reader's own ("include
 * your order number in your reply"): written to a person who holds that order number.
 */
export const asksOfThePerson = (lower: string) =>
  /\byour\s(?!(?:final\s|next\s|own\s|entire\s|whole\s)?(?:responses?|answers?|repl(?:y|ies)|outputs?|summar(?:y|ies)|explanations?|translations?|elucidations?|completions?|message|text|words|sentences|paragraphs|writing|letters)\b)[a-z]/.test(
    lower,
  );

/** The sentence without what it quotes ('Add "… your computer …" to your response': the quote is content). */
export const withoutQuotes = (lower: string) =>
  lower.replace(/"[^"\n]{0,300}"|“[^”\n]{0,300}”|'[^'\n]{2,300}'(?![a-z])/g, '""');

/**
 * Asked the way a user asks an assistant for an action: politely or about the asker's own things
 * ("Please grant the guest access to the lock", "Unlock my front door"), and not the way a document
 * speaks to its readers as customers or colleagues ("you", "your", "our", "we").
 */
export const asksAsThePrincipal = (lower: string) =>
  /\b(?:please|kindly|can\syou|could\syou|would\syou|i\s(?:want|need)\syou\sto|my|mine)\b/.test(lower) &&
  !/\b(?:you|your|our|we|us)\b/.test(lower.replace(/\b(?:can|could|would)\syou\b|\byou\sto\b/g, ''));

/**
 * A table row, a row of links or labels ("Suggest an edit · Manage this business · Add photos"), or
 * a CSV record (fields joined by commas with no space after them).
 */
export const isTableRow = (raw: string) =>
  twoMatches(CELL_MARK, raw) || twoMatches(TIGHT_COMMA, raw) || /^\s*[+|]-{3,}/.test(raw);
const CELL_MARK = /[|·•]/g;
const TIGHT_COMMA = /,\S/g;
/**
 * Whether a global regex (of non-empty matches) matches `s` twice, as `s.match(re).length >= 2`
 * says, without an array of every match: every sentence of every field of data is asked this.
 */
function twoMatches(re: RegExp, s: string): boolean {
  re.lastIndex = 0;
  const two = re.exec(s) !== null && re.exec(s) !== null;
  re.lastIndex = 0;
  return two;
}
/** A line that reads as code: assignments, calls, keywords at the start, braces. */
export const isCodeLine = (raw: string) =>
  /^\s*(?:def|class|import|from|return|if|elif|else|for|while|try|except|with|const|let|var|function|public|private|#include|\$|>>>)\b/.test(
    raw,
  ) || /[;{}]\s*$|^\s*[\w.[\]]+\s?=[^=]|\w\([^)]*\)\s*$/.test(raw);
