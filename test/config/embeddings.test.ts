/** The `embeddings:` section: read into Config, checked with the same messages as every section. */
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/config.js';

describe('embeddings: section', () => {
  it('is read with its keys', () => {
    const config = parseConfig(`
embeddings:
  baseURL: http://localhost:11434/v1
  model: nomic-embed-text
  dimensions: 768
  apiKeyEnv: OLLAMA_KEY
  timeoutMs: 5000
`);
    expect(config.embeddings).toEqual({
      baseURL: 'http://localhost:11434/v1',
      model: 'nomic-embed-text',
      dimensions: 768,
      apiKeyEnv: 'OLLAMA_KEY',
      timeoutMs: 5000,
    });
    expect(parseConfig('').embeddings).toBeUndefined();
  });

  it('a misspelt key gets a did-you-mean with its line', () => {
    expect(() => parseConfig('embeddings:\n  model: m\n  dimension: 256\n')).toThrow(
      'tracejury.yml:3: unknown key "embeddings.dimension" — did you mean "dimensions"?',
    );
  });

  it('a misspelt section name is not taken for an agent', () => {
    expect(() => parseConfig('embedings:\n  model: m\n')).toThrow(
      /unknown key "embedings" — did you mean "embeddings"\?/,
    );
  });

  it('model is required and dimensions a positive integer', () => {
    expect(() => parseConfig('embeddings: { baseURL: "http://localhost:1/v1" }')).toThrow(
      /embeddings\.model/,
    );
    expect(() => parseConfig('embeddings: { model: m, dimensions: 0 }')).toThrow(/embeddings\.dimensions/);
  });
});
