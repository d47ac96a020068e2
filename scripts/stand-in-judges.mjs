// A judge server on 127.0.0.1 that speaks the OpenAI Chat Completions and Anthropic Messages wire
// formats, for recording cassettes in this repository, which has no provider keys and whose build
// machines have no network. `env` points the official SDKs at it (OPENAI_BASE_URL /
// ANTHROPIC_BASE_URL, which both SDKs read, with stand-in keys); the requests tracejury builds go
// through the real SDKs and are answered over HTTP, so only the judges are stand-ins.
// Used by scripts/record-example-cassette.mjs and scripts/check-readme-quickstart.mjs.
import { createServer } from 'node:http';

const USAGE = { input: 820, output: 64 };

/** What a judge with no opinion of its own answers: a pass. */
const DEFAULT_OPINION = {
  score: 0.9,
  confidence: 0.85,
  passed: true,
  reasoning: 'The answer is taken from the tool results and answers the question asked.',
};

function openaiAnswer(model, verdict) {
  return {
    id: `chatcmpl-${model}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: JSON.stringify(verdict), refusal: null },
        finish_reason: 'stop',
      },
    ],
    usage: {
      prompt_tokens: USAGE.input,
      completion_tokens: USAGE.output,
      total_tokens: USAGE.input + USAGE.output,
    },
  };
}

function anthropicAnswer(model, verdict, toolName) {
  return {
    id: `msg_${model}`,
    type: 'message',
    role: 'assistant',
    model,
    // tracejury forces a tool call on Anthropic judges: the verdict is the tool's input.
    content: [{ type: 'tool_use', id: 'toolu_record', name: toolName, input: verdict }],
    stop_reason: 'tool_use',
    stop_sequence: null,
    usage: { input_tokens: USAGE.input, output_tokens: USAGE.output },
  };
}

/**
 * Starts the server. `opinions` maps a model to its verdict; with `strict`, a model it does not
 * name gets a 404 (so a recording cannot silently use a judge nobody meant), else the default pass.
 * Returns `{ url, env, requests, close }`; `requests` lists `METHOD path model` as they come.
 */
export async function startStandInJudges({ opinions = {}, strict = false } = {}) {
  const requests = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const request = JSON.parse(body || '{}');
      const verdict = opinions[request.model] ?? (strict ? undefined : DEFAULT_OPINION);
      requests.push(`${req.method} ${req.url} ${request.model}`);
      const reply = (status, json) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(json));
      };
      if (!verdict) return reply(404, { error: { message: `no stand-in judge for model ${request.model}` } });
      if (req.url.endsWith('/chat/completions')) return reply(200, openaiAnswer(request.model, verdict));
      if (req.url.endsWith('/v1/messages'))
        return reply(
          200,
          anthropicAnswer(request.model, verdict, request.tool_choice?.name ?? 'submit_verdict'),
        );
      reply(404, { error: { message: `unexpected path ${req.url}` } });
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${server.address().port}`;
  return {
    url,
    env: {
      OPENAI_BASE_URL: `${url}/v1`,
      ANTHROPIC_BASE_URL: url,
      OPENAI_API_KEY: 'sk-stand-in-judge',
      ANTHROPIC_API_KEY: 'sk-ant-stand-in-judge',
    },
    requests,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
