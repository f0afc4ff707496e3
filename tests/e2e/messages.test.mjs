// Anthropic's Messages API through the official @anthropic-ai/sdk against a
// real `ingot serve` on the tiny Qwen3 model (random weights, Qwen3's real
// chat template): whole and streamed replies, a tool-use round trip,
// thinking cut by its budget, count_tokens, and the refusals as the SDK's
// error classes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import Anthropic from '@anthropic-ai/sdk';
import Ajv from 'ajv';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serverForFile, haveShared, startServer, sharedModel, synthesizedModel } from './harness.mjs';

const skip = haveShared() ? false : '../shared is absent: no test models';
const session = serverForFile('tiny-qwen3-f16.gguf', ['--parallel', '2']);
const model = 'tiny-qwen3-f16';

function client(options = {}) {
  return new Anthropic({ baseURL: session.server.origin, apiKey: 'unused', maxRetries: 0, ...options });
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
const tools = [{ name: 'get_weather', description: 'Weather in a city', input_schema: weatherSchema }];
const validWeather = new Ajv({ strict: false }).compile(weatherSchema);

test('messages.create answers with a message of text blocks and its usage', { skip }, async () => {
  const message = await client().messages.create({
    model, max_tokens: 12, temperature: 0, system: 'You are terse.',
    messages: [{ role: 'user', content: 'Say hello.' }],
    thinking: { type: 'disabled' },
  });
  assert.match(message.id, /^msg_[A-Za-z0-9]{24}$/);
  assert.equal(message.type, 'message');
  assert.equal(message.role, 'assistant');
  assert.equal(message.model, model);
  assert.ok(['end_turn', 'max_tokens'].includes(message.stop_reason), message.stop_reason);
  for (const block of message.content) assert.equal(block.type, 'text');
  assert.ok(message.usage.input_tokens > 0);
  assert.ok(message.usage.output_tokens > 0 && message.usage.output_tokens <= 12);
});

test('messages.stream folds to the same message as the whole reply', { skip }, async () => {
  const request = {
    model, max_tokens: 24, temperature: 0,
    messages: [{ role: 'user', content: [{ type: 'text', text: 'Count to five.' }] }],
    thinking: { type: 'disabled' },
  };
  const whole = await client().messages.create(request);
  const stream = client().messages.stream(request);
  const names = [];
  stream.on('streamEvent', (event) => names.push(event.type));
  const folded = await stream.finalMessage();
  assert.deepEqual(folded.content, whole.content);
  assert.equal(folded.stop_reason, whole.stop_reason);
  assert.equal(folded.usage.output_tokens, whole.usage.output_tokens);
  assert.equal(names[0], 'message_start');
  assert.equal(names.at(-1), 'message_stop');
  assert.ok(names.includes('message_delta'));
});

test('a tool_use round trip: the call validates, its tool_result continues the turn', { skip }, async () => {
  const messages = [{ role: 'user', content: 'What is the weather in Paris?' }];
  // Seeded, one call: an unseeded draw of random weights may call on and
  // on until max_tokens.
  const first = await client().messages.create({
    model, max_tokens: 200, temperature: 1, seed: 7, tools,
    tool_choice: { type: 'any', disable_parallel_tool_use: true }, messages,
    thinking: { type: 'disabled' },
  });
  assert.equal(first.stop_reason, 'tool_use', JSON.stringify(first.content));
  const call = first.content.find((block) => block.type === 'tool_use');
  assert.ok(call, JSON.stringify(first.content));
  assert.match(call.id, /^toolu_[A-Za-z0-9]{24}$/);
  assert.equal(call.name, 'get_weather');
  assert.ok(validWeather(call.input), JSON.stringify(call.input));

  const second = await client().messages.create({
    model, max_tokens: 8, temperature: 0, tools,
    messages: [
      ...messages,
      { role: 'assistant', content: first.content },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: '18 C, sunny' }] },
    ],
    thinking: { type: 'disabled' },
  });
  assert.equal(second.type, 'message');
  assert.ok(second.usage.cache_read_input_tokens > 0, JSON.stringify(second.usage));
});

test('a streamed tool call arrives as a tool_use block with its input', { skip }, async () => {
  const stream = client().messages.stream({
    model, max_tokens: 200, temperature: 1, seed: 7, tools,
    tool_choice: { type: 'tool', name: 'get_weather', disable_parallel_tool_use: true },
    messages: [{ role: 'user', content: 'Weather in Oslo?' }],
    thinking: { type: 'disabled' },
  });
  const message = await stream.finalMessage();
  assert.equal(message.stop_reason, 'tool_use');
  const call = message.content.find((block) => block.type === 'tool_use');
  assert.ok(validWeather(call.input), JSON.stringify(call.input));
});

// Qwen3.5's template opens the thinking block in the prompt, so a random
// model thinks from its first token; without the budget it would think
// until max_tokens.
test('thinking stops at its budget and the answer follows', { skip }, async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ingot-messages-'));
  const file = synthesizedModel(dir, 'tiny', 'q8_0', { template: 'Qwen3.5-4B.jinja' });
  const server = await startServer(file, ['--alias', model]);
  try {
    const thinker = new Anthropic({ baseURL: server.origin, apiKey: 'unused', maxRetries: 0 });
    const budget = 1024;
    const request = {
      model, max_tokens: budget + 64, temperature: 1, seed: 7,
      messages: [{ role: 'user', content: 'Think hard, then answer.' }],
      thinking: { type: 'enabled', budget_tokens: budget },
    };
    const message = await thinker.messages.create(request);
    assert.equal(message.content[0].type, 'thinking', JSON.stringify(message.content).slice(0, 300));
    const answer = message.content.find((block) => block.type === 'text');
    assert.ok(answer && answer.text.length > 0, JSON.stringify(message.content.map((b) => b.type)));
  } finally {
    assert.equal(await server.stop(), 0);
    rmSync(dir, { recursive: true, force: true });
  }
});

test('countTokens counts the prompt as the reply would see it', { skip }, async () => {
  const short = await client().messages.countTokens({ model, messages: [{ role: 'user', content: 'Hi' }] });
  const long = await client().messages.countTokens({
    model, system: 'A long system prompt about many things.', messages: [{ role: 'user', content: 'Hi' }],
  });
  assert.ok(short.input_tokens > 0);
  assert.ok(long.input_tokens > short.input_tokens);
});

test('refusals arrive as the SDK error classes, in Anthropic error envelopes', { skip }, async () => {
  await assert.rejects(
    client().messages.create({ model, messages: [{ role: 'user', content: 'Hi' }] }),
    (error) => error instanceof Anthropic.BadRequestError && /max_tokens/.test(error.message),
  );
  await assert.rejects(
    client().messages.create({ model: 'no-such-model', max_tokens: 4, messages: [{ role: 'user', content: 'Hi' }] }),
    (error) => error instanceof Anthropic.NotFoundError && error.error?.type === 'error' &&
      error.error?.error?.type === 'not_found_error',
  );
  await assert.rejects(
    client().messages.create({
      model, max_tokens: 4,
      messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } }] }],
    }),
    (error) => error instanceof Anthropic.BadRequestError && /text-only/.test(error.message),
  );
  await assert.rejects(
    client().messages.create({
      model, max_tokens: 4, messages: [{ role: 'user', content: 'Hi' }],
      tools: [{ type: 'web_search_20250305', name: 'web_search' }],
    }),
    (error) => error instanceof Anthropic.BadRequestError && /web_search_20250305/.test(error.message),
  );
});

test('with --api-key, x-api-key is accepted and a wrong one is an AuthenticationError', { skip }, async () => {
  const server = await startServer(sharedModel('tiny-qwen3-f16.gguf'), ['--api-key', 'sekrit']);
  try {
    const good = new Anthropic({ baseURL: server.origin, apiKey: 'sekrit', maxRetries: 0 });
    const reply = await good.messages.create({ model, max_tokens: 2, messages: [{ role: 'user', content: 'Hi' }] });
    assert.equal(reply.type, 'message');
    const bad = new Anthropic({ baseURL: server.origin, apiKey: 'wrong', maxRetries: 0 });
    await assert.rejects(
      bad.messages.create({ model, max_tokens: 2, messages: [{ role: 'user', content: 'Hi' }] }),
      (error) => error instanceof Anthropic.AuthenticationError &&
        error.error?.error?.type === 'authentication_error',
    );
  } finally {
    assert.equal(await server.stop(), 0);
  }
});
