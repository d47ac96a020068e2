/**
 * Credentials tracejury recognises by their own shape beyond gitleaks' default rule set
 * (gitleaksRules.generated.ts, the maintained set redaction builds on): keys of the agent toolchain
 * that set does not know (LangSmith, Pinecone, Tavily, Groq, xAI, ElevenLabs, Firecrawl, Resend,
 * Docker Hub…), Discord bot tokens, Telegram tokens in a bot URL, Google OAuth tokens, webhook
 * URLs, and wider forms of a few the set knows only at one exact length (OpenAI keys without the
 * `T3BlbkFJ` marker, a private key cut off before its END line, Slack and Vault tokens of older
 * shapes). A form the rule set covers as well or better is not repeated here.
 *
 * Every match of a `pattern` holds one of its `anchors` (test/redact checks each form's example):
 * the prefilter is sound only if no pattern can match text without one.
 */
import type { CredentialPattern } from './credentialPattern.js';

export const SECRET_FORMS: readonly CredentialPattern[] = [
  { id: 'Anthropic API key', anchors: ['sk-ant-'], pattern: String.raw`\bsk-ant-[A-Za-z0-9_-]{16,}` },
  {
    id: 'OpenAI API key',
    anchors: ['sk-'],
    pattern: String.raw`\bsk-(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_-]{20,}`,
  },
  {
    id: 'ElevenLabs API key',
    anchors: [String.raw`\bsk_[0-9a-f]{8}`],
    pattern: String.raw`\bsk_[0-9a-f]{48}\b`,
  },
  {
    id: 'GitHub token',
    anchors: [String.raw`gh[pousr]_`],
    pattern: String.raw`\bgh[pousr]_[A-Za-z0-9]{30,}`,
  },
  {
    id: 'GitHub fine-grained token',
    anchors: ['github_pat_'],
    pattern: String.raw`\bgithub_pat_[A-Za-z0-9_]{40,}`,
  },
  { id: 'Hugging Face token', anchors: ['hf_'], pattern: String.raw`\bhf_[A-Za-z0-9]{30,}` },
  { id: 'Stripe webhook secret', anchors: ['whsec_'], pattern: String.raw`\bwhsec_[A-Za-z0-9+/=]{16,}` },
  {
    id: 'Slack token',
    anchors: [String.raw`xox[a-z]-`],
    pattern: String.raw`\bxox[abposre]-[A-Za-z0-9-]{10,}`,
  },
  {
    id: 'Discord webhook',
    anchors: ['/api/webhooks/'],
    pattern: String.raw`discord(?:app)?\.com/api/webhooks/\d+/[A-Za-z0-9_-]{20,}`,
  },
  // A bot token: the bot's id in base64 (it starts M, N or O), a timestamp, an HMAC.
  {
    id: 'Discord bot token',
    anchors: [String.raw`\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{8}`],
    pattern: String.raw`\b[MNO][A-Za-z0-9_-]{23,27}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,40}\b`,
  },
  // `123456789:AA…`, also glued to `bot` in `https://api.telegram.org/bot<token>/sendMessage`.
  {
    id: 'Telegram bot token',
    anchors: [':AA', '/bot'],
    pattern: String.raw`(?<![0-9])[0-9]{5,16}:AA[A-Za-z0-9_-]{33}(?![A-Za-z0-9_-])|(?<=/bot)[0-9]{5,16}:[A-Za-z0-9_-]{30,}`,
  },
  {
    id: 'Microsoft Teams webhook',
    anchors: [String.raw`\.webhook\.office\.com/`, String.raw`outlook\.office`],
    pattern: String.raw`(?:\.webhook\.office\.com/webhookb2|outlook\.office(?:365)?\.com/webhook)/[A-Za-z0-9@/_-]{40,}`,
  },
  {
    id: 'Google OAuth access token',
    anchors: [String.raw`ya29\.`],
    pattern: String.raw`\bya29\.[0-9A-Za-z_-]{20,}`,
  },
  { id: 'Google OAuth refresh token', anchors: ['1//0'], pattern: String.raw`\b1//0[0-9A-Za-z_-]{30,}` },
  {
    id: 'Google OAuth client secret',
    anchors: ['GOCSPX-'],
    pattern: String.raw`\bGOCSPX-[0-9A-Za-z_-]{20,}`,
  },
  {
    id: 'JSON Web Token',
    anchors: ['eyJ'],
    pattern: String.raw`\beyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}`,
  },
  {
    id: 'Mapbox secret token',
    anchors: [String.raw`sk\.eyJ`],
    pattern: String.raw`\bsk\.eyJ[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{16,}`,
  },
  // A key cut off before its END line (a truncated log) is still a key: hide the rest of the text.
  // PEM (`RSA PRIVATE KEY`, `OPENSSH PRIVATE KEY`) and PGP (`PGP PRIVATE KEY BLOCK`) alike.
  {
    id: 'private key',
    anchors: ['-----BEGIN'],
    pattern: String.raw`-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|$)`,
  },
  { id: 'Azure SAS signature', anchors: ['sig='], pattern: String.raw`(?<=[?&;]sig=)[A-Za-z0-9%+/=]{20,}` },
  {
    id: 'Mailgun API key',
    anchors: [String.raw`key-[0-9a-z]{8}`],
    pattern: String.raw`\bkey-[0-9a-z]{32}\b`,
  },
  {
    id: 'Mailgun webhook signing key',
    anchors: [String.raw`-[0-9a-f]{8}-[0-9a-f]{8}`],
    pattern: String.raw`\b[0-9a-f]{32}-[0-9a-f]{8}-[0-9a-f]{8}\b`,
  },
  { id: 'Mailchimp API key', anchors: [String.raw`-us\d`], pattern: String.raw`\b[0-9a-f]{32}-us\d{1,2}\b` },
  {
    id: 'Doppler token',
    anchors: [String.raw`dp\.[a-z]{2}`],
    pattern: String.raw`\bdp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,}`,
  },
  {
    id: 'HashiCorp Vault token',
    anchors: [String.raw`hv[sbr]\.`],
    pattern: String.raw`\bhv[sbr]\.[A-Za-z0-9_-]{24,}`,
  },
  {
    id: 'Linear API key',
    anchors: [String.raw`lin_(?:api|oauth)_`],
    pattern: String.raw`\blin_(?:api|oauth)_[A-Za-z0-9]{40}\b`,
  },
  { id: 'LangSmith API key', anchors: ['lsv2_'], pattern: String.raw`\blsv2_(?:pt|sk)_[A-Za-z0-9_]{20,}` },
  { id: 'Pinecone API key', anchors: ['pcsk_'], pattern: String.raw`\bpcsk_[A-Za-z0-9_]{30,}` },
  { id: 'Tavily API key', anchors: ['tvly-'], pattern: String.raw`\btvly-(?:dev-|prod-)?[A-Za-z0-9]{20,}` },
  { id: 'Firecrawl API key', anchors: [String.raw`\bfc-`], pattern: String.raw`\bfc-[0-9a-f]{32}\b` },
  {
    id: 'Resend API key',
    anchors: [String.raw`\bre_`],
    pattern: String.raw`\bre_[A-Za-z0-9]{6,12}_[A-Za-z0-9]{16,}`,
  },
  { id: 'Notion token', anchors: ['ntn_'], pattern: String.raw`\bntn_[A-Za-z0-9]{30,}` },
  { id: 'Notion integration secret', anchors: ['secret_'], pattern: String.raw`\bsecret_[A-Za-z0-9]{43}\b` },
  { id: 'Docker Hub token', anchors: ['dckr_'], pattern: String.raw`\bdckr_(?:pat|oat)_[A-Za-z0-9_-]{20,}` },
  {
    id: 'Brevo API key',
    anchors: [String.raw`x(?:keysib|smtpsib)-`],
    pattern: String.raw`\bx(?:keysib|smtpsib)-[A-Za-z0-9-]{40,}`,
  },
  { id: 'Facebook access token', anchors: [String.raw`\bEAA`], pattern: String.raw`\bEAA[A-Za-z0-9]{60,}` },
  // gitleaks added these two (artifactory-api-key, artifactory-reference-token) after the
  // release pinned in vendor/gitleaks.
  { id: 'Artifactory API key', anchors: ['AKCp'], pattern: String.raw`\bAKCp[A-Za-z0-9]{60,}` },
  { id: 'Artifactory reference token', anchors: ['cmVmd'], pattern: String.raw`\bcmVmd[A-Za-z0-9]{59}\b` },
  { id: 'Groq API key', anchors: ['gsk_'], pattern: String.raw`\bgsk_[A-Za-z0-9]{40,}` },
  { id: 'Replicate API token', anchors: ['r8_'], pattern: String.raw`\br8_[A-Za-z0-9]{37}\b` },
  { id: 'xAI API key', anchors: ['xai-'], pattern: String.raw`\bxai-[A-Za-z0-9]{60,}` },
  {
    id: 'New Relic key',
    anchors: [String.raw`NR(?:AK|II|JS)-`],
    pattern: String.raw`\bNR(?:AK|II|JS)-[A-Za-z0-9]{19,}`,
  },
  { id: 'Tailscale key', anchors: ['tskey-'], pattern: String.raw`\btskey-[a-z]+-[A-Za-z0-9-]{20,}` },
  { id: 'Supabase token', anchors: ['sbp_'], pattern: String.raw`\bsbp_[a-f0-9]{40}\b` },
  { id: 'Square token', anchors: ['sq0'], pattern: String.raw`\bsq0(?:atp|csp)-[A-Za-z0-9_-]{22,}` },
];
