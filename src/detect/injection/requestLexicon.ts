/**
 * The words a request to the reader is made of (readerRequests.ts): the verbs an imperative starts
 * with, those of them that act through tools, and what may come before the verb ("please", "can
 * you", "make sure to"). Written from how requests are phrased in English, not from any one
 * benchmark's sentences.
 */

/**
 * Verbs a request may start with, in their bare form: asking for content, information, a change
 * to an answer, a change to code, or an action in the world.
 */
// prettier-ignore
export const REQUEST_VERBS: ReadonlySet<string> = new Set([
  // content and information
  'write','draft','compose','create','generate','produce','develop','prepare','craft','author','outline','design',
  'explain','describe','tell','define','summarize','summarise','list','name','identify','compare','contrast',
  'analyze','analyse','evaluate','assess','review','classify','categorize','categorise','rate','rank','score',
  'calculate','compute','estimate','solve','find','search','look','research','investigate','discuss','elaborate',
  'detail','break','walk','teach','show','give','provide','offer','share','suggest','recommend','propose',
  'predict','translate','convert','paraphrase','rephrase','rewrite','reword','proofread','edit','correct','fix',
  'debug','improve','optimize','optimise','refactor','implement','code','program','build','tell','recite','sing',
  'imagine','pretend','act','play','roleplay','respond','reply','answer','say','state','claim','declare','announce',
  'argue','persuade','convince','justify','praise','criticize','criticise','insult','mock','joke',
  // overriding what came before
  'ignore','disregard','forget','override','bypass','neglect',
  // changes to an answer
  'add','include','insert','append','prepend','integrate','incorporate','embed','inject','mention','modify',
  'augment','enhance','enrich','replace','remove','delete','drop','omit','use','utilize','utilise','employ',
  'leverage','render','encode','decode','encrypt','misspell','scramble','jumble','shuffle','rearrange','reorder',
  'reverse','group','combine','merge','split','separate','substitute','swap','format','structure','begin','start',
  'end','finish','conclude','close','open','prefix','suffix','wrap','capitalize','capitalise','uppercase',
  'lowercase','spell','abbreviate','shorten','expand','extend','limit','restrict','keep','make','put','place',
  'turn','change','alter','adjust','adapt','transform','introduce','promote','advertise','endorse','tease','hint',
  'highlight','stress','emphasize','emphasise','express','invite','encourage','urge','ask','remind','warn',
  'inform','notify','direct','redirect','point','link','refer','cite','quote','attach','sign','end',
  // changes to code
  'blend','meld','fuse','weave','interweave','infuse','absorb','assimilate','adopt','deploy','enlist','engage',
  'harmonize','harmonise','import','call','invoke','execute','run','install','load','require','apply','ensure',
  'consider','let',
  // actions through tools
  'send','forward','email','mail','message','text','transfer','pay','wire','refund','withdraw','deposit','move',
  'copy','post','publish','tweet','retweet','upload','download','fetch','retrieve','get','grab','pull','push',
  'visit','browse','navigate','click','go','follow','unfollow','like','subscribe','unsubscribe','book','reserve',
  'schedule','reschedule','cancel','buy','purchase','order','sell','grant','revoke','allow','deny','approve',
  'reject','unlock','lock','disable','enable','reset','rename','set','update','upgrade','downgrade','assign',
  'invite','kick','ban','block','unblock','erase','wipe','purge','destroy','shut','shutdown','restart','reboot',
  'kill','terminate','stop','halt','cease','quit','abort','pause','suspend','check','verify','confirm','read',
  'open','save','store','export','submit','fill','register','enroll','join','leave','archive','transfer',
]);

/**
 * Verbs that act in the world through an agent's tools (money, messages, files, accounts): a
 * request made of one of these that names an address, a link or an account is a request for a tool
 * call.
 */
// prettier-ignore
export const TOOL_VERBS: ReadonlySet<string> = new Set([
  'send','forward','email','mail','message','text','transfer','pay','wire','refund','withdraw','deposit','move',
  'copy','post','publish','tweet','retweet','upload','download','fetch','retrieve','visit','browse','navigate',
  'click','follow','unfollow','like','subscribe','book','reserve','schedule','reschedule','cancel','buy',
  'purchase','order','sell','grant','revoke','allow','approve','unlock','lock','disable','enable','reset','rename',
  'set','update','change','assign','invite','add','remove','delete','kick','ban','block','erase','wipe','purge',
  'destroy','shut','shutdown','restart','reboot','kill','terminate','create','share','give','install','run',
  'execute','call','invoke','save','export','submit','register','join','leave','archive','make',
]);

/**
 * Verbs that ask the reader to produce content or information — what an assistant is asked for,
 * not what a document asks of a person (save, enjoy, visit, book). A bare request of one of these
 * counts when it departs from the document; one of the others needs an address to aim at (`tool`)
 * or framing.
 */
// prettier-ignore
export const TASK_VERBS: ReadonlySet<string> = new Set([
  'write','draft','compose','create','generate','produce','develop','prepare','craft','author','outline','design',
  'explain','describe','tell','define','summarize','summarise','list','name','identify','compare','contrast',
  'analyze','analyse','evaluate','assess','classify','categorize','categorise','rate','rank','calculate','compute',
  'estimate','solve','find','research','investigate','discuss','elaborate','detail','break','walk','teach','show',
  'give','provide','suggest','recommend','propose','predict','translate','convert','paraphrase','rephrase',
  'rewrite','reword','proofread','implement','code','program','build','recite','sing','imagine','pretend','act',
  'play','roleplay','say','claim','argue','persuade','convince','justify',
  'praise','criticize','criticise','insult','mock','joke','help','offer','share','invent','brainstorm','plan',
]);

/** Words that may stand before the verb of a request and say nothing themselves. */
// prettier-ignore
export const LEAD_INS: ReadonlySet<string> = new Set([
  'please','kindly','also','now','then','and','so','just','first','firstly','finally','lastly','additionally',
  'moreover','furthermore','next','immediately','quickly','simply','afterwards','subsequently','again','therefore',
  'thus','really','definitely','absolutely','strictly','carefully','seamlessly','optimally','harmoniously',
  'urgently','promptly','secretly','quietly','silently','always','only','oh','ok','okay','hey','but',
]);

/**
 * Openings that make what follows a request to the reader, as word sequences (lowercase, after
 * the sentence's lead-ins): "can you …", "make sure to …", "don't hesitate to …". The verb follows.
 */
// prettier-ignore
export const REQUEST_OPENINGS: readonly (readonly string[])[] = [
  ['can', 'you'], ['could', 'you'], ['would', 'you'], ['will', 'you'], ['would', 'you', 'mind'],
  ['i', 'want', 'you', 'to'], ['i', 'need', 'you', 'to'], ['i', 'would', 'like', 'you', 'to'],
  ["i'd", 'like', 'you', 'to'], ['we', 'want', 'you', 'to'], ['we', 'need', 'you', 'to'],
  ['you', 'should'], ['you', 'must'], ['you', 'need', 'to'], ['you', 'have', 'to'], ['you', 'will'],
  ['you', 'shall'], ['you', 'are', 'to'], ['you', 'are', 'required', 'to'], ['you', 'are', 'asked', 'to'],
  ['you', 'are', 'instructed', 'to'], ['you', 'may', 'want', 'to'], ['you', 'might', 'want', 'to'],
  ["don't", 'forget', 'to'], ['do', 'not', 'forget', 'to'], ['be', 'sure', 'to'], ['make', 'sure', 'to'],
  ['make', 'sure', 'you'], ['make', 'sure', 'that', 'you'], ['remember', 'to'], ["don't", 'hesitate', 'to'],
  ['do', 'not', 'hesitate', 'to'], ['feel', 'free', 'to'], ['be', 'certain', 'to'], ['keep', 'in', 'mind', 'to'],
  ['it', 'is', 'important', 'to'], ['it', 'is', 'essential', 'to'], ['it', 'is', 'crucial', 'to'],
  ['it', 'is', 'vital', 'to'], ['it', 'is', 'necessary', 'to'], ['to', 'proceed'], ['in', 'addition'],
  ['i', 'ask', 'you', 'to'], ['we', 'ask', 'you', 'to'], ['your', 'task', 'is', 'to'], ['your', 'job', 'is', 'to'],
  ['your', 'goal', 'is', 'to'], ['the', 'next', 'step', 'is', 'to'], ['go', 'ahead', 'and'],
];

/** Words that open a question asking for something (information, or an action). */
// prettier-ignore
export const QUESTION_WORDS: ReadonlySet<string> = new Set([
  'what','who','whom','whose','which','when','where','why','how','what\'s','who\'s','where\'s','how\'s',
  'is','are','was','were','do','does','did','can','could','would','will','should','shall','may','might','have','has',
]);

/** Words after a verb that show it is a noun (a heading, "Update is available", "Order of service"). */
// prettier-ignore
export const NOT_AFTER_VERB: ReadonlySet<string> = new Set([
  'of','is','are','was','were','has','have','had','will','would','can','could','should','may','might','must',
  'and','or','&','vs','x','id','no','number','date','time','status','history','details','summary','required',
  // "Please find attached …", "see below": a document pointing at itself
  'attached','enclosed','below','above','herewith','overleaf',
]);
