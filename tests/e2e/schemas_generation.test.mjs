// response_format json_schema over HTTP for every schema of the corpus, on
// a random-weight model at temperature 1: a reply that completes (finish
// reason stop) parses and validates with ajv. A reply cut by max_tokens
// (finish reason length) is exempt, as OpenAI documents; random weights
// end strings rarely, so some are. INGOT_SCHEMA_GENERATIONS sets the
// replies per schema (the acceptance run uses 50; the default keeps CI short).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { serverForFile, haveShared } from './harness.mjs';
import { loadCorpus, compileValidator } from './schema_corpus.mjs';

const skip = haveShared() ? false : '../shared is absent: no test models';
const perSchema = Number(process.env.INGOT_SCHEMA_GENERATIONS ?? 2);
const maxTokens = 400;
const session = serverForFile('tiny-qwen3-f16.gguf', ['--parallel', '4', '--ctx-size', '2048'], { timeout: 300_000 });

async function generate(entry, seed) {
  const reply = await session.client.chat.completions.create({
    model: 'tiny-qwen3-f16',
    messages: [{ role: 'user', content: `Give me JSON: ${entry.description}` }],
    temperature: 1,
    top_p: 1,
    seed,
    max_tokens: maxTokens,
    response_format: { type: 'json_schema', json_schema: { name: entry.name, schema: entry.schema } },
  });
  return reply.choices[0];
}

test('every corpus schema constrains sampled replies to valid JSON', { skip }, async () => {
  const corpus = loadCorpus();
  let complete = 0;
  let total = 0;
  for (const entry of corpus) {
    const validate = compileValidator(entry);
    const seeds = Array.from({ length: perSchema }, (_, i) => i + 1);
    for (let i = 0; i < seeds.length; i += 4) {
      const choices = await Promise.all(seeds.slice(i, i + 4).map((seed) => generate(entry, seed)));
      for (const choice of choices) {
        total += 1;
        if (choice.finish_reason === 'length') continue;
        assert.equal(choice.finish_reason, 'stop', entry.name);
        complete += 1;
        let value;
        assert.doesNotThrow(() => { value = JSON.parse(choice.message.content); }, `${entry.name}: ${choice.message.content}`);
        assert.ok(validate(value), `${entry.name}: ${choice.message.content}\n${JSON.stringify(validate.errors)}`);
      }
    }
  }
  console.log(`schemas: ${complete} of ${total} replies complete within ${maxTokens} tokens, all valid`);
  assert.ok(complete * 2 > total, `only ${complete} of ${total} replies completed`);
});
