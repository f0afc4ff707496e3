// /v1/completions in the legacy API's own shapes: logprobs as OpenAI's
// `Completion` type has them, and echo with prompt scores, as evaluation
// harnesses (lm-evaluation-harness's local-completions) send them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverForFile, haveShared } from './harness.mjs';

const skip = haveShared() ? false : '../shared is absent: no test models';
const session = serverForFile('stories260K.gguf');
const model = 'stories260K';

function assertLegacyLogprobs(logprobs, n) {
  for (const key of ['tokens', 'token_logprobs', 'top_logprobs', 'text_offset']) {
    assert.ok(Array.isArray(logprobs[key]), key);
    assert.equal(logprobs[key].length, n, key);
  }
  assert.equal(logprobs.content, undefined);  // not the chat shape
}

test('completion logprobs come in the legacy shape the SDK types', { skip }, async () => {
  const reply = await session.client.completions.create(
    { model, prompt: 'Once upon a time', max_tokens: 4, temperature: 0, logprobs: 3 });
  const { logprobs, text } = reply.choices[0];
  assertLegacyLogprobs(logprobs, 4);
  assert.equal(logprobs.tokens.join(''), text);
  for (const [i, top] of logprobs.top_logprobs.entries()) {
    assert.equal(Object.keys(top).length, 3);
    assert.ok(logprobs.token_logprobs[i] <= 0);
    // Greedy: the chosen token is the best alternative.
    assert.equal(Math.max(...Object.values(top)), logprobs.token_logprobs[i]);
  }
  // Offsets count from the prompt's start, the prompt not being echoed.
  assert.equal(logprobs.text_offset[0], 'Once upon a time'.length);

  const stream = await session.client.completions.create(
    { model, prompt: 'Once upon a time', max_tokens: 4, temperature: 0, logprobs: 3, stream: true });
  const streamed = [];
  for await (const chunk of stream) {
    const part = chunk.choices[0]?.logprobs;
    if (part) streamed.push(...part.tokens.map((t, i) => [t, part.token_logprobs[i], part.text_offset[i]]));
  }
  assert.deepEqual(streamed, logprobs.tokens.map((t, i) => [t, logprobs.token_logprobs[i], logprobs.text_offset[i]]));
});

test('echo with max_tokens 0 scores the prompt, the first token null', { skip }, async () => {
  const prompt = 'Once upon a time there was';
  const reply = await session.client.completions.create(
    { model, prompt, max_tokens: 0, echo: true, logprobs: 2, temperature: 0 });
  const choice = reply.choices[0];
  assert.equal(choice.text, prompt);
  assert.equal(choice.finish_reason, 'length');
  assert.equal(reply.usage.completion_tokens, 0);
  const n = reply.usage.prompt_tokens;
  assertLegacyLogprobs(choice.logprobs, n);
  assert.equal(choice.logprobs.token_logprobs[0], null);
  assert.equal(choice.logprobs.top_logprobs[0], null);
  for (let i = 1; i < n; i += 1) assert.ok(choice.logprobs.token_logprobs[i] <= 0);
  // Each offset points at its token's text in the echoed prompt.
  for (let i = 1; i < n; i += 1) {
    const piece = choice.logprobs.tokens[i].trimStart();
    assert.equal(prompt.slice(choice.logprobs.text_offset[i]).trimStart().startsWith(piece), true, piece);
  }
});

// The loglikelihood of a continuation as lm-evaluation-harness computes it
// from one request: token ids in, the context's length sliced off.
async function loglikelihood(origin, payload, ctxlen, sliceEnd) {
  const response = await fetch(`${origin}/v1/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(payload),
  });
  assert.equal(response.status, 200);
  const body = await response.json();
  const choice = body.choices[0];
  const logprobs = choice.logprobs.token_logprobs.slice(ctxlen, sliceEnd);
  const tops = choice.logprobs.top_logprobs.slice(ctxlen, sliceEnd);
  const isGreedy = logprobs.every((lp, i) => lp === Math.max(...Object.values(tops[i])));
  return { sum: logprobs.reduce((a, b) => a + b, 0), isGreedy, n: logprobs.length };
}

test('lm-evaluation-harness requests score a continuation', { skip }, async () => {
  const tokenized = await (await fetch(`${session.server.origin}/tokenize`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ content: 'Once upon a time, there was a little girl', add_special: true }),
  })).json();
  const ids = tokenized.tokens;
  const ctxlen = 5;  // "<s> Once upon a time"
  // Today's local-completions: a batch of one tokenized prompt, one token generated.
  const current = await loglikelihood(session.server.origin, {
    model, prompt: [ids], temperature: 0, max_tokens: 1, logprobs: 1, seed: 1234, echo: true,
  }, ctxlen, -1);
  // The older OpenAI-completions model: max_tokens 0, ten alternatives.
  const older = await loglikelihood(session.server.origin, {
    model, prompt: [ids], echo: true, max_tokens: 0, temperature: 0, logprobs: 10,
  }, ctxlen, undefined);
  assert.equal(current.n, ids.length - ctxlen);
  assert.equal(older.n, ids.length - ctxlen);
  assert.ok(Number.isFinite(current.sum) && current.sum < 0);
  assert.ok(Math.abs(current.sum - older.sum) < 1e-4, `${current.sum} vs ${older.sum}`);
  assert.equal(current.isGreedy, older.isGreedy);
});

test('grammar and response_format constrain a completion', { skip }, async () => {
  const grammar = 'root ::= "yes" | "no"';
  for (const stream of [false, true]) {
    const reply = await session.client.completions.create(
      { model, prompt: 'Once upon a time', max_tokens: 8, temperature: 1, seed: 7, grammar, stream });
    let text = '';
    if (stream) for await (const chunk of reply) text += chunk.choices[0]?.text ?? '';
    else text = reply.choices[0].text;
    assert.ok(text === 'yes' || text === 'no', JSON.stringify(text));
  }
  const json = await session.client.completions.create({
    model, prompt: 'Once upon a time', max_tokens: 200, temperature: 0,
    response_format: { type: 'json_schema', json_schema: { name: 'n', schema: {
      type: 'object', properties: { n: { type: 'integer' } }, required: ['n'], additionalProperties: false } } },
  });
  assert.equal(typeof JSON.parse(json.choices[0].text).n, 'number');
  await assert.rejects(session.client.completions.create(
    { model, prompt: 'x', grammar: 'root ::= (' }), (e) => e.status === 400);
});

test('refusals name the completion route\'s own fields', { skip }, async () => {
  await assert.rejects(session.client.completions.create(
    { model, prompt: 'x', max_tokens: 1, logit_bias: { 999999: 5 } }),
  (e) => e.status === 400 && e.param === 'logit_bias');
  await assert.rejects(session.client.completions.create(
    { model, prompt: 'once upon a time '.repeat(2000), max_tokens: 1 }),
  (e) => e.status === 400 && e.code === 'context_length_exceeded' && e.param === 'prompt');
  await assert.rejects(session.client.responses.create(
    { model, input: 'once upon a time '.repeat(2000), max_output_tokens: 16 }),
  (e) => e.status === 400 && e.code === 'context_length_exceeded' && e.param === 'input');
});
