/**
 * The words of a text that say what it is about, for measuring how far a sentence departs from the
 * document around it and from the user's task (departure.ts). Function words, the words of any
 * request ("please", "following", "response") and the commonest English words say nothing about a
 * topic, so they are left out; what is left is cut to a crude stem (plural, -ing, -ed, then seven
 * letters), so "panels" meets "panel" and "photosynthesis" meets "photosynthetic".
 */
import { REQUEST_VERBS } from './requestLexicon.js';

/**
 * Words that carry no topic: function words, the commonest English nouns, verbs and adjectives,
 * the vocabulary every e-mail, page or request shares (greetings, "click", "reply", "email"), and
 * the words of the reader's own output ("response", "answer", "code") that a request names.
 */
// prettier-ignore
const FUNCTION_WORDS = new Set([
  'the','and','for','are','but','not','you','all','any','can','had','her','was','one','our','out','has','him','his',
  'how','its','may','new','now','old','see','two','way','who','did','get','got','let','put','say','she','too','use',
  'that','with','have','this','will','your','from','they','know','want','been','good','much','some','time','very',
  'when','come','here','just','like','long','make','many','more','only','over','such','take','than','them','well',
  'were','what','into','also','back','both','each','even','most','must','same','then','there','these','those',
  'their','which','would','about','after','again','could','every','first','other','should','still','think','where',
  'while','being','before','below','above','under','between','through','during','without','within','along',
  'because','however','therefore','although','though','whether','either','neither','another','anything',
  'everything','nothing','something','someone','anyone','everyone','yourself','itself','themselves','myself',
  'ourselves','whose','whom','why','yes','off','own','per','via','etc','upon','onto','toward','towards','across',
  'around','among','since','until','unless','yet','does','doing','done','having','shall','might','cannot','can\'t',
  'don\'t','won\'t','isn\'t','it\'s','i\'m','you\'re','we\'re','they\'re','let\'s','that\'s','there\'s','what\'s',
  'dont','wont','isnt','cant','youre','ours','yours','mine','hers','theirs','thing','things','lot','lots','kind',
  'sort','bit','part','few','less','least','next','last','later','soon','ago','today','tomorrow','yesterday',
  'always','never','often','sometimes','usually','already','ever','really','quite','rather','almost','enough',
  'instead','else','maybe','perhaps','sure','okay','ok','thanks','thank','hello','dear','regards','best','sincerely',
  'cheers','please','kindly','hey','hi','yours','via',
]);

/** The commonest nouns, verbs and adjectives of any document, and the words of a request's output. */
// prettier-ignore
const COMMON_PROSE = new Set([
  'year','years','day','days','week','weeks','month','months','hour','hours','minute','minutes','date','number',
  'people','person','man','woman','world','life','work','place','case','point','group','company','system','program',
  'question','questions','problem','fact','hand','home','area','money','story','right','left','end','line','name',
  'information','info','detail','details','example','way','ways','form','level','order','type','list','set','value',
  'result','results','issue','issues','change','changes','note','notes','page','pages','link','links','email',
  'emails','mail','message','messages','reply','replies','contact','support','team','service','services','account',
  'customer','customers','user','users','help','free','full','high','low','small','large','big','great','little',
  'important','different','available','possible','able','following','below','above','attached','current','recent',
  'latest','simple','general','specific','certain','clear','main','major','real','true','false','whole','best',
  'better','last','early','late','open','click','here','view','read','learn','more','find','call','visit','website',
  'site','online','today','item','items','total','amount','price','cost','free','sent','received','including',
  'include','included','based','using','used','within','also','additional','following','below','below','new',
  'response','responses','answer','answers','reply','output','outputs','text','summary','sentence','sentences',
  'word','words','letter','letters','paragraph','code','codebase','snippet','block','excerpt','section','solution',
  'implementation','script','function','functions','algorithm','project','file','files','data','input','return',
  'test','tests','error','errors','run','way','make','sure','thing','part','step','steps','task','tasks','request',
  'requests','instruction','instructions','assistant','reader','readers','subject','content','contents','body',
  'regarding','re','fw','fwd','cc','bcc','pm','am','com','org','net','www','http','https','html','inc','ltd','llc',
]);

/** Keywords and builtins of the languages code pages quote: identifiers every program shares. */
// prettier-ignore
const CODE_COMMON = new Set([
  'import','from','def','class','return','self','none','true','false','null','undefined','function','const','var',
  'let','new','this','await','async','yield','lambda','pass','raise','try','except','finally','catch','throw',
  'while','for','in','if','elif','else','with','as','not','and','or','is','print','len','str','int','float','bool',
  'dict','list','tuple','set','range','open','read','write','close','append','string','object','type','main',
  'public','private','static','void','include','std','args','kwargs','init','__init__','name','value','data','path',
  'file','result','error','get','put','json','text','key','keys','items','os','sys','http','https','www','com',
]);

/**
 * A crude stem: plural, -ing / -ed and a final -e dropped, then at most seven letters (enough to
 * tell topics apart, short enough that inflections and derivations meet).
 */
export function stem(word: string): string {
  let w = word;
  if (w.endsWith("'s") || w.endsWith('’s')) w = w.slice(0, -2);
  if (w.length > 4 && w.endsWith('ies')) w = `${w.slice(0, -3)}y`;
  else if (w.length > 4 && w.endsWith('sses')) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss') && !w.endsWith('us') && !w.endsWith('is'))
    w = w.slice(0, -1);
  if (w.length > 5 && w.endsWith('ing')) w = w.slice(0, -3);
  else if (w.length > 4 && w.endsWith('ed')) w = w.slice(0, -2);
  // "require", "requires", "requiring" and "required" meet at "requir".
  if (w.length > 4 && w.endsWith('e')) w = w.slice(0, -1);
  return w.length > 7 ? w.slice(0, 7) : w;
}

/** The word tokens of a text: letters (and apostrophes inside words), lowercased, split on the rest. */
const WORD = /[a-z][a-z'’]*[a-z]|[a-z]/g;

/**
 * Whether a lowercase word carries a topic: three letters or more, not a function word; in prose
 * not a common word nor a verb a request starts with (what a request asks for is said by its
 * objects, not its verb); in code not a keyword or builtin (there a verb is a name: `sendall`,
 * `upload`).
 */
export const isTopical = (w: string, code = false): boolean =>
  w.length >= 3 &&
  !FUNCTION_WORDS.has(w) &&
  (code ? !CODE_COMMON.has(w) : !COMMON_PROSE.has(w) && !REQUEST_VERBS.has(w));

/**
 * The stems of the topical words of a text, counted. `code` also splits identifiers
 * (snake_case, camelCase) and leaves out keywords and builtins.
 */
export function topicalStems(text: string, code = false): Map<string, number> {
  const bag = new Map<string, number>();
  const source = code ? splitIdentifiers(text) : text;
  const lower = source.toLowerCase();
  WORD.lastIndex = 0;
  for (let m = WORD.exec(lower); m !== null; m = WORD.exec(lower)) {
    const w = m[0];
    if (!isTopical(w, code)) continue;
    const s = stem(w);
    bag.set(s, (bag.get(s) ?? 0) + 1);
  }
  return bag;
}

/** camelCase and snake_case identifiers as separate words ("getUserName" → "get User Name"). */
function splitIdentifiers(text: string): string {
  return text.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/_/g, ' ');
}
