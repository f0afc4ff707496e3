// gpt-oss served to the official openai package with its own (harmony)
// chat template: whole and streamed replies; the analysis channel as
// reasoning_content and the final one as content; and a tool round trip
// (call, result, answer). A grammar makes the random-weight model write
// what a trained one would.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import OpenAI from 'openai';
import { haveShared, startServer, wholeAndStreamed, synthesizedModel } from './harness.mjs';

const skip = !haveShared() && '../shared is absent';
const model = 'tiny-gpt-oss';
const question = { role: 'user', content: 'What is the weather in Paris?' };
const tools = [{
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'The weather in a city',
    parameters: { type: 'object', properties: { city: { type: 'string', enum: ['Paris', 'Rome'] } }, required: ['city'] },
  },
}];
const gbnf = (text) => `root ::= ${JSON.stringify(text)}`;
const answer = gbnf('<|channel|>analysis<|message|>Easy one.<|end|><|start|>assistant<|channel|>final<|message|>It is sunny.');
const call = gbnf('<|channel|>analysis<|message|>I need the weather.<|end|><|start|>assistant'
  + '<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"city":"Paris"}');
let server;
let client;
let dir;

before(async () => {
  if (skip) return;
  dir = mkdtempSync(path.join(os.tmpdir(), 'ingot-gpt-oss-'));
  const file = synthesizedModel(dir, model, 'mxfp4', { template: 'openai-gpt-oss-120b.jinja' });
  server = await startServer(file, ['--parallel', '2', '--alias', model]);
  client = new OpenAI({ baseURL: server.baseURL, apiKey: 'unused', maxRetries: 0 });
});

after(async () => {
  if (server) assert.equal(await server.stop(), 0);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('a gpt-oss model answers whole and streamed, the same text', { skip }, async () => {
  const ask = { model, messages: [question], max_tokens: 10, temperature: 0 };
  const { whole, text } = await wholeAndStreamed(client, ask);
  assert.equal(whole.usage.completion_tokens, 10);
  assert.equal(text, whole.choices[0].message.content ?? '');
});

test('the analysis channel is reasoning_content, the final one content, whole and streamed', { skip }, async () => {
  const body = { model, messages: [question], max_tokens: 64, temperature: 0, grammar: answer };
  const whole = await client.chat.completions.create(body);
  assert.equal(whole.choices[0].message.content, 'It is sunny.');
  assert.equal(whole.choices[0].message.reasoning_content, 'Easy one.');
  let content = '';
  let reasoning = '';
  for await (const chunk of await client.chat.completions.create({ ...body, stream: true })) {
    const delta = chunk.choices[0]?.delta ?? {};
    content += delta.content ?? '';
    reasoning += delta.reasoning_content ?? '';
    assert.ok(!content.includes('<|'), content);
    assert.ok(!reasoning.includes('<|'), reasoning);
  }
  assert.equal(content, 'It is sunny.');
  assert.equal(reasoning, 'Easy one.');
});

test('a commentary message to functions.get_weather is a tool call, whole and streamed', { skip }, async () => {
  // tool_choice "required" holds the reply to harmony's call from its first token.
  const body = { model, messages: [question], tools, tool_choice: 'required', seed: 3, temperature: 1.0, max_tokens: 300 };
  const whole = await client.chat.completions.create(body);
  const choice = whole.choices[0];
  assert.equal(choice.finish_reason, 'tool_calls', JSON.stringify(choice.message));
  assert.equal(choice.message.content, null);
  assert.equal(choice.message.tool_calls.length, 1);
  assert.equal(choice.message.tool_calls[0].function.name, 'get_weather');
  const args = JSON.parse(choice.message.tool_calls[0].function.arguments);
  assert.equal(typeof args.city, 'string');

  let name = '';
  let streamedArgs = '';
  let content = '';
  for await (const chunk of await client.chat.completions.create({ ...body, stream: true })) {
    const delta = chunk.choices[0]?.delta ?? {};
    content += delta.content ?? '';
    for (const piece of delta.tool_calls ?? []) {
      name += piece.function?.name ?? '';
      streamedArgs += piece.function?.arguments ?? '';
    }
  }
  assert.equal(content, '');
  assert.equal(name, 'get_weather');
  assert.deepEqual(JSON.parse(streamedArgs), args);
});

test('a tool round trip: the call and its result go back, and the model answers', { skip }, async () => {
  const first = await client.chat.completions.create(
    { model, messages: [question], tools, tool_choice: 'required', seed: 3, temperature: 1.0, max_tokens: 300 });
  const message = first.choices[0].message;
  const messages = [
    question,
    { role: 'assistant', content: null, reasoning_content: 'I need the weather.', tool_calls: message.tool_calls },
    { role: 'tool', tool_call_id: message.tool_calls[0].id, content: '18C and sunny' },
  ];
  const second = await client.chat.completions.create(
    { model, messages, tools, seed: 3, temperature: 1.0, max_tokens: 8 });
  const choice = second.choices[0];
  // With "auto" the model may answer or call again; either is well-formed.
  if (choice.message.tool_calls) {
    assert.equal(choice.finish_reason, 'tool_calls');
  } else {
    assert.equal(choice.finish_reason, 'length');
  }
  // The call, its reasoning and the result were in the prompt, as the template renders them.
  assert.ok(second.usage.prompt_tokens > first.usage.prompt_tokens + 10, JSON.stringify(second.usage));
});
