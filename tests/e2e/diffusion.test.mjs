// A diffusion model (tiny-diffusion-gemma, canvases of 32) served to the
// official openai and @anthropic-ai/sdk packages: whole and streamed
// replies agree under one seed, a stream sends one content delta per
// committed canvas, cancelling mid-canvas frees the slot, every
// generation route answers, and the fields a canvas cannot honour are
// refused by name.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import OpenAI from 'openai';
import Anthropic from '@anthropic-ai/sdk';
import { haveShared, startServer, synthesizedModel } from './harness.mjs';

const skip = !haveShared() && '../shared is absent';
const model = 'tiny-diffusion-gemma';
const canvas = 32;
const messages = [{ role: 'user', content: 'Tell me about rivers.' }];
// Few steps a canvas: these tests are about the contract, not the text.
const quick = { diffusion_steps: 3, seed: 42 };
let server;
let client;
let dir;

before(async () => {
  if (skip) return;
  dir = mkdtempSync(path.join(os.tmpdir(), 'ingot-diffusion-'));
  server = await startServer(synthesizedModel(dir, model, 'q8_0'), ['--parallel', '1', '--alias', model]);
  client = new OpenAI({ baseURL: server.baseURL, apiKey: 'unused', maxRetries: 0 });
});

after(async () => {
  if (server) assert.equal(await server.stop(), 0);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('whole and streamed replies agree under one seed, one delta per canvas', { skip }, async () => {
  const ask = { model, messages, max_tokens: 2 * canvas, ...quick };
  const whole = await client.chat.completions.create(ask);
  const reply = whole.choices[0].message.content;
  const stream = await client.chat.completions.create({ ...ask, stream: true, stream_options: { include_usage: true } });
  const deltas = [];
  let usage = null;
  let finish = null;
  for await (const chunk of stream) {
    const content = chunk.choices[0]?.delta?.content;
    if (content) deltas.push(content);
    if (chunk.choices[0]?.finish_reason) finish = chunk.choices[0].finish_reason;
    if (chunk.usage) usage = chunk.usage;
  }
  assert.equal(deltas.join(''), reply);
  assert.equal(usage.completion_tokens, whole.usage.completion_tokens);
  assert.equal(finish, whole.choices[0].finish_reason);
  // A random model seldom writes an end token: a reply cut at max_tokens
  // took two canvases, one that ended early took one.
  const canvases = finish === 'length' ? 2 : deltas.length;
  assert.equal(deltas.length, canvases);
  if (finish === 'length') assert.equal(whole.usage.completion_tokens, 2 * canvas);
});

test('another seed denoises another reply', { skip }, async () => {
  const ask = { model, messages, max_tokens: canvas, diffusion_steps: 3 };
  const a = await client.chat.completions.create({ ...ask, seed: 1 });
  const b = await client.chat.completions.create({ ...ask, seed: 2 });
  const again = await client.chat.completions.create({ ...ask, seed: 1 });
  assert.notEqual(a.choices[0].message.content, b.choices[0].message.content);
  assert.equal(again.choices[0].message.content, a.choices[0].message.content);
});

test('cancelling a stream mid-canvas frees the only slot', { skip }, async () => {
  const stream = await client.chat.completions.create({
    model, messages, max_tokens: 1024, diffusion_steps: 1000, stream: true,
  });
  // The role's chunk comes at once; the canvas's would take its 1000 steps.
  for await (const chunk of stream) {
    assert.equal(chunk.choices[0].delta.role, 'assistant');
    break;
  }
  // With one slot, the next request is served only once it is free.
  const next = await client.chat.completions.create({ model, messages, max_tokens: 8, ...quick });
  assert.equal(next.choices[0].finish_reason, 'length');
});

test('completions, Responses and Messages answer with canvases too', { skip }, async () => {
  const text = await client.completions.create({ model, prompt: 'Rivers run', max_tokens: 8, ...quick });
  assert.equal(text.usage.completion_tokens, 8);
  const response = await client.responses.create({ model, input: 'Rivers?', max_output_tokens: 8, seed: 42 });
  assert.equal(response.status, 'incomplete');
  assert.equal(response.usage.output_tokens, 8);
  const anthropic = new Anthropic({ baseURL: server.origin, apiKey: 'unused', maxRetries: 0 });
  const message = await anthropic.messages.create({ model, max_tokens: 8, messages });
  assert.equal(message.stop_reason, 'max_tokens');
  assert.equal(message.usage.output_tokens, 8);
});

test('fields a canvas cannot honour are refused by name', { skip }, async () => {
  const refusals = [
    [{ logprobs: true }, 'logprobs'],
    [{ logit_bias: { 5: 1 } }, 'logit_bias'],
    [{ presence_penalty: 0.5 }, 'presence_penalty'],
    [{ response_format: { type: 'json_object' } }, 'response_format'],
    [{ tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }] }, 'tools'],
    [{ diffusion_steps: 0 }, 'diffusion_steps'],
  ];
  for (const [fields, param] of refusals) {
    await assert.rejects(
      client.chat.completions.create({ model, messages, max_tokens: 8, ...fields }),
      (error) => error.status === 400 && error.param === param && /diffusion|canvas|between/.test(error.message),
      param,
    );
  }
  // Messages and Responses take the diffusion fields too, checked alike.
  const anthropic = new Anthropic({ baseURL: server.origin, apiKey: 'unused', maxRetries: 0 });
  await assert.rejects(
    anthropic.messages.create({ model, max_tokens: 8, messages, diffusion_steps: 0 }),
    (error) => error.status === 400 && /diffusion_steps/.test(error.message),
  );
  const steps = await client.responses.create({ model, input: 'Rivers?', max_output_tokens: 8, diffusion_steps: 2 });
  assert.equal(steps.usage.output_tokens, 8);
});
