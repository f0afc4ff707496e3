// Gemma 4 served to the official openai package, with Gemma 4's own chat
// template: whole and streamed replies, and the thought channel kept out
// of `content` (a grammar makes the random-weight model write one); and
// Gemma 3 with the Gemma chat template.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import OpenAI from 'openai';
import { haveShared, startServer, wholeAndStreamed, synthesizedModel } from './harness.mjs';

const skip = !haveShared() && '../shared is absent';
const model = 'tiny-gemma4';
const messages = [{ role: 'user', content: 'Why is the sky blue?' }];
const thinking = { enable_thinking: true };
// The reply a thinking Gemma 4 writes: its thought channel, then the answer.
const channelGrammar = 'root ::= "<|channel>thought\\nFirst, light scatters.<channel|>Rayleigh scattering."';
let server;
let client;
let dir;

before(async () => {
  if (skip) return;
  dir = mkdtempSync(path.join(os.tmpdir(), 'ingot-gemma4-'));
  const file = synthesizedModel(dir, model, 'q8_0', { template: 'google-gemma-4-31B-it.jinja' });
  server = await startServer(file, ['--parallel', '2', '--alias', model]);
  client = new OpenAI({ baseURL: server.baseURL, apiKey: 'unused', maxRetries: 0 });
});

after(async () => {
  if (server) assert.equal(await server.stop(), 0);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('a Gemma 4 model answers whole and streamed, the same text', { skip }, async () => {
  const whole = await client.chat.completions.create({ model, messages, max_tokens: 10, temperature: 0 });
  assert.equal(whole.usage.completion_tokens, 10);
  const stream = await client.chat.completions.create({ model, messages, max_tokens: 10, temperature: 0, stream: true });
  let text = '';
  for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
  assert.equal(text, whole.choices[0].message.content);
});

test('a Gemma 4 thought channel is reasoning_content, never content', { skip }, async () => {
  const body = { model, messages, max_tokens: 64, temperature: 0, grammar: channelGrammar, chat_template_kwargs: thinking };
  const whole = await client.chat.completions.create(body);
  assert.equal(whole.choices[0].message.content, 'Rayleigh scattering.');
  assert.equal(whole.choices[0].message.reasoning_content, '\nFirst, light scatters.');
  const stream = await client.chat.completions.create({ ...body, stream: true });
  let content = '';
  let reasoning = '';
  for await (const chunk of stream) {
    const delta = chunk.choices[0]?.delta ?? {};
    content += delta.content ?? '';
    reasoning += delta.reasoning_content ?? '';
    assert.ok(!content.includes('channel'), content);
  }
  assert.equal(content, 'Rayleigh scattering.');
  assert.equal(reasoning, '\nFirst, light scatters.');
});

test('reasoning_effort turns a Gemma 4 thought channel on', { skip }, async () => {
  const body = { model, messages, max_tokens: 64, temperature: 0, grammar: channelGrammar, reasoning_effort: 'high' };
  const reply = await client.chat.completions.create(body);
  assert.equal(reply.choices[0].message.content, 'Rayleigh scattering.');
  assert.equal(reply.choices[0].message.reasoning_content, '\nFirst, light scatters.');
});

test('a Gemma 3 model with the Gemma chat template answers whole and streamed, the same text', { skip }, async () => {
  const file = synthesizedModel(dir, 'tiny-gemma3', 'q8_0', { template: 'google-gemma-2-2b-it.jinja' });
  const gemma3 = await startServer(file, ['--parallel', '2', '--alias', 'gemma3']);
  try {
    const sdk = new OpenAI({ baseURL: gemma3.baseURL, apiKey: 'unused', maxRetries: 0 });
    const { whole, text } = await wholeAndStreamed(sdk, { model: 'gemma3', messages, max_tokens: 10, temperature: 0 });
    assert.equal(whole.usage.completion_tokens, 10);
    // The Gemma template's turn markers, tokenized as the prompt.
    assert.ok(whole.usage.prompt_tokens > 10, JSON.stringify(whole.usage));
    assert.equal(text, whole.choices[0].message.content);
  } finally {
    assert.equal(await gemma3.stop(), 0);
  }
});
