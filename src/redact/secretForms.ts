/**
 * Credentials recognised by their own shape: a provider's fixed prefix (or a fixed host in a
 * webhook URL) and a body of known characters and length, as each provider documents them.
 * gitleaks' default rule set (config/gitleaks.toml) served as the checklist of which forms are
 * common enough to matter; the patterns are written here, not copied, because:
 *
 * - redaction runs synchronously on every signal of a run, behind a literal prefilter; each form
 *   below keeps a fixed, case-sensitive fragment (`anchor`) the prefilter looks for, which a rule
 *   set built for scanning repositories does not promise;
 * - gitleaks' keyword rules (`<service> … = <32 hex>`) would take trace ids and hashes beside a
 *   service's name for keys; the names that announce a secret are handled by redact.ts's named
 *   values (`api_key=`, `Authorization:`, `X_KEY=`), which cover those rules' real cases;
 * - its patterns are RE2 with inline flags, and a dependency (secretlint's rules) is asynchronous
 *   and scans whole files.
 *
 * Not recognised: a bare high-entropy string with no prefix and no name before it (a Cloudflare
 * or Heroku API key pasted alone, an AWS secret key with no `aws_secret_access_key` beside it).
 *
 * Every match of a `pattern` contains its `anchor` (test/redact checks each form's example): the
 * prefilter is sound only if no pattern can match text without one.
 */
export interface SecretForm {
  name: string;
  /**
   * A regex source that every match contains, case as written: what the prefilter looks for. It
   * starts with a literal character (the prefilter is factored by it) and must be selective: text
   * without it is never scanned further.
   */
  anchor: string;
  /** The regex source of the whole credential (it is replaced). */
  pattern: string;
}

export const SECRET_FORMS: readonly SecretForm[] = [
  { name: 'Anthropic API key', anchor: 'sk-ant-', pattern: String.raw`\bsk-ant-[A-Za-z0-9_-]{16,}` },
  {
    name: 'OpenAI API key',
    anchor: 'sk-',
    pattern: String.raw`\bsk-(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_-]{20,}`,
  },
  { name: 'Stripe secret key', anchor: 'k_live_', pattern: String.raw`\b[sr]k_live_[A-Za-z0-9]{16,}` },
  { name: 'Stripe test key', anchor: 'k_test_', pattern: String.raw`\b[sr]k_test_[A-Za-z0-9]{16,}` },
  { name: 'Stripe webhook secret', anchor: 'whsec_', pattern: String.raw`\bwhsec_[A-Za-z0-9+/=]{16,}` },
  { name: 'GitHub token', anchor: String.raw`gh[pousr]_`, pattern: String.raw`\bgh[pousr]_[A-Za-z0-9]{30,}` },
  {
    name: 'GitHub fine-grained token',
    anchor: 'github_pat_',
    pattern: String.raw`\bgithub_pat_[A-Za-z0-9_]{40,}`,
  },
  {
    name: 'GitLab token',
    anchor: String.raw`gl[a-z]{1,5}-`,
    pattern: String.raw`\bgl(?:pat|dt|rt|ptt|cbt|soat|oas|ffct|imt|ft|agent)-[A-Za-z0-9_-]{20,}`,
  },
  { name: 'GitLab runner token', anchor: 'GR1348941', pattern: String.raw`\bGR1348941[A-Za-z0-9_-]{20,}` },
  { name: 'Hugging Face token', anchor: 'hf_', pattern: String.raw`\bhf_[A-Za-z0-9]{30,}` },
  {
    name: 'Slack token',
    anchor: String.raw`xox[a-z]-`,
    pattern: String.raw`\bxox[abposre]-[A-Za-z0-9-]{10,}`,
  },
  { name: 'Slack app token', anchor: 'xapp-', pattern: String.raw`\bxapp-\d-[A-Za-z0-9-]{20,}` },
  {
    name: 'Slack webhook',
    anchor: String.raw`hooks\.slack\.com/`,
    pattern: String.raw`hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9/_+-]{8,}`,
  },
  {
    name: 'Discord webhook',
    anchor: '/api/webhooks/',
    pattern: String.raw`discord(?:app)?\.com/api/webhooks/\d+/[A-Za-z0-9_-]{20,}`,
  },
  {
    name: 'AWS access key id',
    anchor: 'A(?:KIA|SIA|BIA|CCA|3T)',
    pattern: String.raw`\b(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}\b`,
  },
  { name: 'Google API key', anchor: 'AIza', pattern: String.raw`\bAIza[0-9A-Za-z_-]{35}` },
  {
    name: 'Google OAuth access token',
    anchor: String.raw`ya29\.`,
    pattern: String.raw`\bya29\.[0-9A-Za-z_-]{20,}`,
  },
  { name: 'Google OAuth refresh token', anchor: '1//0', pattern: String.raw`\b1//0[0-9A-Za-z_-]{30,}` },
  { name: 'Google OAuth client secret', anchor: 'GOCSPX-', pattern: String.raw`\bGOCSPX-[0-9A-Za-z_-]{20,}` },
  {
    name: 'JSON Web Token',
    anchor: 'eyJ',
    pattern: String.raw`\beyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}`,
  },
  // A key cut off before its END line (a truncated log) is still a key: hide the rest of the text.
  {
    name: 'private key',
    anchor: '-----BEGIN',
    pattern: String.raw`-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)`,
  },
  {
    name: 'SendGrid API key',
    anchor: String.raw`SG\.`,
    pattern: String.raw`\bSG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}`,
  },
  { name: 'npm token', anchor: 'npm_', pattern: String.raw`\bnpm_[A-Za-z0-9]{36}\b` },
  { name: 'PyPI token', anchor: 'pypi-AgE', pattern: String.raw`\bpypi-AgE[A-Za-z0-9_-]{50,}` },
  {
    name: 'Azure AD client secret',
    anchor: 'Q~',
    pattern: String.raw`(?<![A-Za-z0-9_~.])[A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.-]{31,34}`,
  },
  { name: 'Azure SAS signature', anchor: 'sig=', pattern: String.raw`(?<=[?&;]sig=)[A-Za-z0-9%+/=]{20,}` },
  { name: 'Twilio API key', anchor: String.raw`SK[0-9a-f]{8}`, pattern: String.raw`\bSK[0-9a-f]{32}\b` },
  {
    name: 'Mailgun API key',
    anchor: String.raw`key-[0-9a-z]{8}`,
    pattern: String.raw`\bkey-[0-9a-z]{32}\b`,
  },
  {
    name: 'Mailchimp API key',
    anchor: String.raw`-us\d`,
    pattern: String.raw`\b[0-9a-f]{32}-us\d{1,2}\b`,
  },
  {
    name: 'Shopify token',
    anchor: String.raw`shp[a-z]{2}_`,
    pattern: String.raw`\bshp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}\b`,
  },
  { name: 'DigitalOcean token', anchor: '_v1_', pattern: String.raw`\bdo[opr]_v1_[a-f0-9]{64}\b` },
  { name: 'Databricks token', anchor: 'dapi', pattern: String.raw`\bdapi[a-f0-9]{32}(?:-\d)?\b` },
  {
    name: 'Doppler token',
    anchor: String.raw`dp\.[a-z]{2}`,
    pattern: String.raw`\bdp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,}`,
  },
  {
    name: 'HashiCorp Vault token',
    anchor: String.raw`hv[sbr]\.`,
    pattern: String.raw`\bhv[sbr]\.[A-Za-z0-9_-]{24,}`,
  },
  {
    name: 'Linear API key',
    anchor: String.raw`lin_(?:api|oauth)_`,
    pattern: String.raw`\blin_(?:api|oauth)_[A-Za-z0-9]{40}\b`,
  },
  { name: 'Postman API key', anchor: 'PMAK-', pattern: String.raw`\bPMAK-[a-f0-9]{24}-[a-f0-9]{34}\b` },
  { name: 'Atlassian API token', anchor: 'ATATT3', pattern: String.raw`\bATATT3[A-Za-z0-9_=-]{50,}` },
  { name: 'Groq API key', anchor: 'gsk_', pattern: String.raw`\bgsk_[A-Za-z0-9]{40,}` },
  { name: 'Replicate API token', anchor: 'r8_', pattern: String.raw`\br8_[A-Za-z0-9]{37}\b` },
  { name: 'Perplexity API key', anchor: 'pplx-', pattern: String.raw`\bpplx-[A-Za-z0-9]{40,}` },
  { name: 'xAI API key', anchor: 'xai-', pattern: String.raw`\bxai-[A-Za-z0-9]{60,}` },
  {
    name: 'Grafana token',
    anchor: String.raw`gl(?:c|sa)_`,
    pattern: String.raw`\bgl(?:c|sa)_[A-Za-z0-9+/_=]{32,}`,
  },
  {
    name: 'New Relic key',
    anchor: String.raw`NR(?:AK|II|JS)-`,
    pattern: String.raw`\bNR(?:AK|II|JS)-[A-Za-z0-9]{19,}`,
  },
  { name: 'Sentry token', anchor: 'sntr', pattern: String.raw`\bsntry[su]_[A-Za-z0-9+/=_-]{40,}` },
  {
    name: 'age secret key',
    anchor: 'AGE-SECRET-KEY-1',
    pattern: String.raw`\bAGE-SECRET-KEY-1[A-Z0-9]{58}\b`,
  },
  { name: 'Telegram bot token', anchor: ':AA', pattern: String.raw`\b\d{8,10}:AA[A-Za-z0-9_-]{33}` },
  { name: 'Tailscale key', anchor: 'tskey-', pattern: String.raw`\btskey-[a-z]+-[A-Za-z0-9-]{20,}` },
  { name: 'Supabase token', anchor: 'sbp_', pattern: String.raw`\bsbp_[a-f0-9]{40}\b` },
  {
    name: 'PlanetScale token',
    anchor: 'pscale_',
    pattern: String.raw`\bpscale_(?:tkn|pw|oauth)_[A-Za-z0-9_.-]{32,}`,
  },
  { name: 'Square token', anchor: 'sq0', pattern: String.raw`\bsq0(?:atp|csp)-[A-Za-z0-9_-]{22,}` },
  { name: 'Heroku API key', anchor: 'HRKU-', pattern: String.raw`\bHRKU-[A-Za-z0-9_-]{30,}` },
  {
    name: 'Dynatrace token',
    anchor: String.raw`dt0c01\.`,
    pattern: String.raw`\bdt0c01\.[A-Z0-9]{24}\.[A-Z0-9]{64}\b`,
  },
  {
    name: '1Password service account token',
    anchor: 'ops_eyJ',
    pattern: String.raw`\bops_eyJ[A-Za-z0-9+/]{100,}={0,3}`,
  },
];
