// Structured output through the OpenAI SDK against a real `ingot serve`:
// JSON Schema (from a zod schema, parsed by the SDK), JSON mode,
// llama-server's `grammar`, and the 400s for what cannot be enforced. The
// model has random weights, so whatever shape a reply has comes from the
// grammar, not from the model behaving.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { zodResponseFormat } from 'openai/helpers/zod';
import { z } from 'zod';
import { serverForFile, haveShared } from './harness.mjs';

const skip = haveShared() ? false : '../shared is absent: no test models';
const session = serverForFile('tiny-qwen3-f16.gguf', ['--parallel', '2']);

const model = 'tiny-qwen3-f16';
const messages = [{ role: 'user', content: 'Report the weather in Paris as JSON.' }];

// Bounded strings keep a random model from writing one string forever.
const Weather = z.object({
  city: z.string().max(12),
  temperature: z.number().int().min(-40).max(50),
  unit: z.enum(['celsius', 'fahrenheit']),
  sunny: z.boolean(),
  tags: z.array(z.enum(['wind', 'rain', 'fog'])).max(3),
});

test('chat.completions.parse with a zod schema returns a parsed object', { skip }, async () => {
  for (const seed of [1, 2, 3, 4, 5]) {
    const reply = await session.client.chat.completions.parse({
      model, messages, seed, temperature: 1.0, max_tokens: 400,
      response_format: zodResponseFormat(Weather, 'weather'),
    });
    const choice = reply.choices[0];
    assert.equal(choice.finish_reason, 'stop', choice.message.content);
    assert.deepEqual(Weather.parse(choice.message.parsed), choice.message.parsed);
    assert.deepEqual(JSON.parse(choice.message.content), choice.message.parsed);
  }
});

test('a streamed json_schema reply is the same JSON as the whole one', { skip }, async () => {
  const request = {
    model, messages, seed: 11, temperature: 1.0, max_tokens: 400,
    response_format: zodResponseFormat(Weather, 'weather'),
  };
  const whole = await session.client.chat.completions.create(request);
  const stream = await session.client.chat.completions.create({ ...request, stream: true });
  let text = '';
  for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
  assert.equal(text, whole.choices[0].message.content);
  Weather.parse(JSON.parse(text));
});

test('json_object replies open an object and parse whenever they finish', { skip }, async () => {
  for (const seed of [1, 2, 3, 4, 5, 6]) {
    const reply = await session.client.chat.completions.create({
      model, messages, seed, temperature: 1.0, max_tokens: 48,
      response_format: { type: 'json_object' },
    });
    const { content } = reply.choices[0].message;
    assert.match(content, /^\s*\{/);
    if (reply.choices[0].finish_reason === 'stop') {
      const value = JSON.parse(content);
      assert.equal(typeof value, 'object');
      assert.ok(value !== null && !Array.isArray(value));
    } else {
      assert.equal(reply.choices[0].finish_reason, 'length');
    }
  }
});

test('a GBNF grammar decides the reply', { skip }, async () => {
  for (const seed of [1, 2, 3, 4]) {
    const reply = await session.client.chat.completions.create({
      model, messages, seed, temperature: 1.0, max_tokens: 16,
      grammar: 'root ::= ("yes" | "no") ", " [0-9] [0-9]?',
    });
    assert.match(reply.choices[0].message.content, /^(yes|no), [0-9]{1,2}$/);
    assert.equal(reply.choices[0].finish_reason, 'stop');
  }
});

test('what cannot be enforced is a 400 naming it', { skip }, async () => {
  const unenforceable = { type: 'object', patternProperties: { '^a': {} } };
  // Not strict: dropped, and named in a header.
  const { data, response } = await session.client.chat.completions.create({
    model, messages, max_tokens: 4,
    response_format: { type: 'json_schema', json_schema: { name: 'x', schema: unenforceable } },
  }).withResponse();
  assert.equal(data.object, 'chat.completion');
  assert.equal(response.headers.get('x-ingot-relaxed'), 'response_format.json_schema.schema#: patternProperties');
  await assert.rejects(
    session.client.chat.completions.create({
      model, messages, max_tokens: 4,
      response_format: { type: 'json_schema', json_schema: { name: 'x', strict: true, schema: unenforceable } },
    }),
    (error) => error instanceof OpenAI.BadRequestError &&
      error.param === 'response_format.json_schema.schema' && /patternProperties/.test(error.message));
  await assert.rejects(
    session.client.chat.completions.create({ model, messages, max_tokens: 4, grammar: 'root ::= [a-' }),
    (error) => error instanceof OpenAI.BadRequestError && error.param === 'grammar' &&
      /1:\d+/.test(error.message));
  await assert.rejects(
    session.client.chat.completions.create({ model, messages, max_tokens: 4, response_format: { type: 'yaml' } }),
    (error) => error instanceof OpenAI.BadRequestError && error.param === 'response_format.type');
});

// Thousands of parses in flight at once: the grammar's mask and its
// matcher must agree, or every request fails (issue 45, item 3).
test('wide schemas (1,200 optional properties, an anyOf of 400 objects) give valid replies', { skip }, async () => {
  const properties = {};
  for (let i = 0; i < 1200; ++i) properties[`p${i}`] = { type: 'integer', maximum: 99 };
  const optional = { type: 'object', properties, additionalProperties: false };
  const anyOf = {
    anyOf: Array.from({ length: 400 }, (_, i) => ({
      type: 'object', properties: { [`k${i}`]: { type: 'boolean' } }, required: [`k${i}`], additionalProperties: false,
    })),
  };
  for (const schema of [optional, anyOf]) {
    const reply = await session.client.chat.completions.create({
      model, messages, max_tokens: 400, temperature: 1, seed: 3,
      response_format: { type: 'json_schema', json_schema: { name: 'wide', schema } },
    });
    const choice = reply.choices[0];
    if (choice.finish_reason === 'stop') assert.equal(typeof JSON.parse(choice.message.content), 'object');
    else assert.equal(choice.finish_reason, 'length');
  }
});
