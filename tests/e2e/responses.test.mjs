// OpenAI's Responses API through the official openai SDK against a real
// `ingot serve` on the tiny Qwen3 model (random weights, Qwen3's real chat
// template): create with a string and with items, a stream folded by the
// SDK, parse with a zod schema, a function-call round trip continued by
// previous_response_id, the stored responses' routes, and the refusals as
// the SDK's error classes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import Ajv from 'ajv';
import { zodTextFormat } from 'openai/helpers/zod';
import { z } from 'zod';
import { serverForFile, haveShared, startServer, sharedModel } from './harness.mjs';

const skip = haveShared() ? false : '../shared is absent: no test models';
const session = serverForFile('tiny-qwen3-f16.gguf', ['--parallel', '2']);
const model = 'tiny-qwen3-f16';
const noThinking = { effort: 'none' };

function client() {
  return new OpenAI({ baseURL: `${session.server.origin}/v1`, apiKey: 'unused', maxRetries: 0 });
}

const weatherSchema = {
  type: 'object',
  properties: {
    city: { type: 'string', maxLength: 10 },
    unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
  },
  required: ['city', 'unit'],
  additionalProperties: false,
};
const tools = [{ type: 'function', name: 'get_weather', description: 'Weather in a city', parameters: weatherSchema, strict: true }];
const validWeather = new Ajv({ strict: false }).compile(weatherSchema);

test('responses.create answers a string input under instructions', { skip }, async () => {
  const response = await client().responses.create({
    model, input: 'Say hello.', instructions: 'You are terse.', max_output_tokens: 12,
    temperature: 0, reasoning: noThinking,
  });
  assert.match(response.id, /^resp_[A-Za-z0-9]{48}$/);
  assert.equal(response.object, 'response');
  assert.ok(['completed', 'incomplete'].includes(response.status), response.status);
  if (response.status === 'incomplete') assert.equal(response.incomplete_details.reason, 'max_output_tokens');
  assert.equal(response.model, model);
  assert.equal(response.instructions, 'You are terse.');
  assert.equal(response.max_output_tokens, 12);
  const message = response.output.find((item) => item.type === 'message');
  assert.ok(message, JSON.stringify(response.output));
  assert.equal(message.role, 'assistant');
  assert.equal(message.content[0].type, 'output_text');
  assert.equal(response.output_text, message.content[0].text);
  assert.ok(response.usage.input_tokens > 0);
  assert.ok(response.usage.output_tokens > 0 && response.usage.output_tokens <= 12);
  assert.equal(response.usage.total_tokens, response.usage.input_tokens + response.usage.output_tokens);
});

test('responses.create takes message items with parts and roles', { skip }, async () => {
  const response = await client().responses.create({
    model, max_output_tokens: 6, temperature: 0, reasoning: noThinking,
    input: [
      { role: 'developer', content: 'Answer in one word.' },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Colour of the sky?' }] },
      { role: 'assistant', content: 'Blue.' },
      { role: 'user', content: 'And grass?' },
    ],
  });
  assert.ok(response.output.length > 0);
  assert.ok(response.usage.input_tokens > 10);
});

test('responses.stream folds to the same response as the whole reply', { skip }, async () => {
  const request = {
    model, input: 'Count to five.', max_output_tokens: 24, temperature: 0, seed: 3,
    reasoning: noThinking, store: false,
  };
  const whole = await client().responses.create(request);
  const stream = client().responses.stream(request);
  const types = [];
  const sequence = [];
  stream.on('event', (event) => { types.push(event.type); sequence.push(event.sequence_number); });
  const folded = await stream.finalResponse();
  assert.equal(folded.output_text, whole.output_text);
  assert.deepEqual(folded.output.map((item) => item.type), whole.output.map((item) => item.type));
  assert.equal(folded.status, whole.status);
  assert.equal(folded.usage.output_tokens, whole.usage.output_tokens);
  assert.deepEqual(types.slice(0, 2), ['response.created', 'response.in_progress']);
  assert.ok(['response.completed', 'response.incomplete'].includes(types.at(-1)), types.at(-1));
  assert.ok(types.includes('response.output_text.delta'));
  assert.deepEqual(sequence, sequence.map((_, i) => i));
});

// Bounded strings keep a random model from writing one string forever.
const Weather = z.object({
  city: z.string().max(12),
  unit: z.enum(['celsius', 'fahrenheit']),
  sunny: z.boolean(),
});

test('responses.parse with a zod schema returns the parsed object', { skip }, async () => {
  for (const seed of [1, 2, 3]) {
    const response = await client().responses.parse({
      model, input: 'Report the weather in Paris.', seed, temperature: 1, max_output_tokens: 200,
      reasoning: noThinking, text: { format: zodTextFormat(Weather, 'weather') },
    });
    assert.equal(response.status, 'completed', response.output_text);
    assert.deepEqual(Weather.parse(response.output_parsed), response.output_parsed);
    assert.deepEqual(JSON.parse(response.output_text), response.output_parsed);
  }
});

test('a function call continued by previous_response_id reuses the cached prompt', { skip }, async () => {
  const first = await client().responses.create({
    model, input: 'What is the weather in Paris?', tools, tool_choice: 'required',
    max_output_tokens: 200, temperature: 1, seed: 5, reasoning: noThinking,
  });
  const call = first.output.find((item) => item.type === 'function_call');
  assert.ok(call, JSON.stringify(first.output));
  assert.equal(call.name, 'get_weather');
  assert.equal(call.status, 'completed');
  assert.match(call.id, /^fc_/);
  assert.ok(validWeather(JSON.parse(call.arguments)), call.arguments);

  const second = await client().responses.create({
    model, previous_response_id: first.id, tools, max_output_tokens: 8, temperature: 0,
    reasoning: noThinking,
    input: [{ type: 'function_call_output', call_id: call.call_id, output: '18 C, sunny' }],
  });
  assert.equal(second.previous_response_id, first.id);
  assert.ok(second.usage.input_tokens > first.usage.input_tokens);
  assert.ok(second.usage.input_tokens_details.cached_tokens > 0, JSON.stringify(second.usage));
});

test('a stored response is retrieved, listed, deleted, and then gone', { skip }, async () => {
  const created = await client().responses.create({
    model, input: [{ role: 'user', content: 'One.' }, { role: 'user', content: 'Two.' }],
    max_output_tokens: 4, temperature: 0, reasoning: noThinking, metadata: { run: 'e2e' },
  });
  const retrieved = await client().responses.retrieve(created.id);
  assert.equal(retrieved.id, created.id);
  assert.deepEqual(retrieved.output, created.output);
  assert.deepEqual(retrieved.metadata, { run: 'e2e' });

  const items = await client().responses.inputItems.list(created.id, { order: 'asc' });
  assert.deepEqual(items.data.map((item) => item.content[0].text), ['One.', 'Two.']);
  const newestFirst = await client().responses.inputItems.list(created.id);
  assert.equal(newestFirst.data[0].content[0].text, 'Two.');

  await client().responses.delete(created.id);
  await assert.rejects(client().responses.retrieve(created.id), (error) => error instanceof OpenAI.NotFoundError);
  await assert.rejects(client().responses.delete(created.id), (error) => error instanceof OpenAI.NotFoundError);
});

test('store: false keeps nothing to continue', { skip }, async () => {
  const unstored = await client().responses.create({
    model, input: 'Hi', max_output_tokens: 2, store: false, reasoning: noThinking,
  });
  assert.equal(unstored.store, false);
  await assert.rejects(
    client().responses.create({ model, input: 'Again', previous_response_id: unstored.id, max_output_tokens: 2 }),
    (error) => error instanceof OpenAI.NotFoundError && error.param === 'previous_response_id' &&
      error.message.includes(unstored.id),
  );
});

test('a hosted tool (Codex sends web_search) is left out and named; forcing one is refused', { skip }, async () => {
  const { data, response } = await client().responses.create({
    model, input: 'Hi', max_output_tokens: 2,
    tools: [{ type: 'web_search' }, { type: 'function', name: 'shell', parameters: { type: 'object' } }],
  }).withResponse();
  assert.equal(data.status, 'incomplete');
  assert.equal(response.headers.get('x-ingot-dropped-tools'), 'web_search');
  await assert.rejects(
    client().responses.create({ model, input: 'Hi', tools: [{ type: 'web_search' }], tool_choice: { type: 'web_search' } }),
    (error) => error instanceof OpenAI.BadRequestError && error.param === 'tool_choice',
  );
});

test('refusals arrive as the SDK error classes naming their field', { skip }, async () => {
  await assert.rejects(
    client().responses.create({ model: 'no-such-model', input: 'Hi' }),
    (error) => error instanceof OpenAI.NotFoundError,
  );
  await assert.rejects(
    client().responses.create({ model, input: [{ role: 'user', content: [{ type: 'input_image', image_url: 'https://x/y.png' }] }] }),
    (error) => error instanceof OpenAI.BadRequestError && /text-only/.test(error.message),
  );
  await assert.rejects(
    client().responses.create({ model, input: 'Hi', max_output_tokens: 0 }),
    (error) => error instanceof OpenAI.BadRequestError && error.param === 'max_output_tokens',
  );
});

test('with --api-key, the stored responses need the key too', { skip }, async () => {
  const server = await startServer(sharedModel('tiny-qwen3-f16.gguf'), ['--api-key', 'sekrit']);
  try {
    const good = new OpenAI({ baseURL: `${server.origin}/v1`, apiKey: 'sekrit', maxRetries: 0 });
    const created = await good.responses.create({ model, input: 'Hi', max_output_tokens: 2 });
    const bad = new OpenAI({ baseURL: `${server.origin}/v1`, apiKey: 'wrong', maxRetries: 0 });
    await assert.rejects(bad.responses.retrieve(created.id), (error) => error instanceof OpenAI.AuthenticationError);
    assert.equal((await good.responses.retrieve(created.id)).id, created.id);
  } finally {
    assert.equal(await server.stop(), 0);
  }
});

test('/metrics counts the Responses routes by their patterns, never by id', { skip }, async () => {
  const created = await client().responses.create({ model, input: 'Hi', max_output_tokens: 2, reasoning: noThinking });
  await client().responses.retrieve(created.id);
  await assert.rejects(client().responses.retrieve('resp_missing'), (error) => error instanceof OpenAI.NotFoundError);
  const text = await (await fetch(`${session.server.origin}/metrics`)).text();
  const count = (route, status) => {
    const line = text.split('\n').find((l) => l.startsWith(`ingot_requests_total{route="${route}",status="${status}"} `));
    return line ? Number(line.split(' ')[1]) : 0;
  };
  assert.ok(count('/v1/responses', 200) >= 1, text);
  assert.ok(count('/v1/responses/{id}', 200) >= 1, text);
  assert.ok(count('/v1/responses/{id}', 404) >= 1, text);
  assert.ok(!text.includes(created.id));
});
