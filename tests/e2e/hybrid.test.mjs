// A hybrid model (Qwen3.5's linear attention beside gated attention) served
// to the official openai package: whole and streamed replies, concurrent
// streams, and a second turn that resumes the first's recurrent state.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import OpenAI from 'openai';
import { haveShared, ingotBinary, startServer, wholeAndStreamed, synthesizedModel } from './harness.mjs';

const skip = !haveShared() && '../shared is absent';
const model = 'tiny-qwen35';
const messages = [{ role: 'user', content: 'Tell me about clocks.' }];
let server;
let client;
let dir;

function synthesize(shape, nextn = 'random') {
  return synthesizedModel(dir, shape, 'q8_0', { nextn });
}

async function metric(baseURL, name) {
  const text = await (await fetch(new URL('/metrics', baseURL))).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return Number(line.split(' ')[1]);
}

before(async () => {
  if (skip) return;
  dir = mkdtempSync(path.join(os.tmpdir(), 'ingot-hybrid-'));
  server = await startServer(synthesize(model), ['--parallel', '2', '--alias', model]);
  client = new OpenAI({ baseURL: server.baseURL, apiKey: 'unused', maxRetries: 0 });
});

after(async () => {
  if (server) assert.equal(await server.stop(), 0);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

for (const shape of ['tiny-qwen35moe', 'tiny-qwen3moe', 'tiny-phi3', 'tiny-gemma2']) test(`a ${shape} model answers whole and streamed, the same text`, { skip }, async () => {
  const moe = await startServer(synthesize(shape), ['--parallel', '2', '--alias', 'moe']);
  try {
    const sdk = new OpenAI({ baseURL: moe.baseURL, apiKey: 'unused', maxRetries: 0 });
    const { whole, text } = await wholeAndStreamed(sdk, { model: 'moe', messages, max_tokens: 12, temperature: 0 });
    assert.equal(whole.usage.completion_tokens, 12);
    assert.equal(text, whole.choices[0].message.content);
  } finally {
    assert.equal(await moe.stop(), 0);
  }
});

test('a hybrid model answers whole and streamed, the same text', { skip }, async () => {
  const whole = await client.chat.completions.create({ model, messages, max_tokens: 12, temperature: 0 });
  assert.equal(whole.object, 'chat.completion');
  assert.equal(whole.usage.completion_tokens, 12);
  const stream = await client.chat.completions.create({
    model, messages, max_tokens: 12, temperature: 0, stream: true, stream_options: { include_usage: true },
  });
  let text = '';
  let usage = null;
  for await (const chunk of stream) {
    text += chunk.choices[0]?.delta?.content ?? '';
    if (chunk.usage) usage = chunk.usage;
  }
  assert.equal(text, whole.choices[0].message.content);
  assert.equal(usage.completion_tokens, 12);
});

test('concurrent streams on a hybrid model each get their solo reply', { skip }, async () => {
  const asks = ['One', 'Two', 'Three', 'Four'].map((word) => [{ role: 'user', content: `${word} clocks ticked.` }]);
  const solo = [];
  for (const m of asks) {
    solo.push((await client.chat.completions.create({ model, messages: m, max_tokens: 8, temperature: 0 })).choices[0].message.content);
  }
  const together = await Promise.all(
    asks.map((m) => client.chat.completions.create({ model, messages: m, max_tokens: 8, temperature: 0 })),
  );
  assert.deepEqual(together.map((r) => r.choices[0].message.content), solo);
});

test('the second turn on a hybrid model reports cached prompt tokens', { skip }, async () => {
  const first = await client.chat.completions.create({ model, messages, max_tokens: 8, temperature: 0 });
  const next = [...messages, first.choices[0].message, { role: 'user', content: 'And then?' }];
  const second = await client.chat.completions.create({ model, messages: next, max_tokens: 8, temperature: 0 });
  assert.ok(second.usage.prompt_tokens_details.cached_tokens >= first.usage.prompt_tokens,
    JSON.stringify({ first: first.usage, second: second.usage }));
});

test('with --mtp, replies are those without it, whole and streamed, and drafts are accepted', { skip }, async () => {
  // The echo prediction block drafts the token it is given; the random
  // trunk repeats tokens, so some drafts stand and some fall.
  const file = synthesize(model, 'echo');
  const asks = ['Tell me about clocks.', 'Count to ten.', 'Hello!'].map((content) => ({
    model: 'mtp', messages: [{ role: 'user', content }], max_tokens: 24, temperature: 0,
  }));
  const plain = await startServer(file, ['--alias', 'mtp']);
  const expected = [];
  try {
    const sdk = new OpenAI({ baseURL: plain.baseURL, apiKey: 'unused', maxRetries: 0 });
    for (const ask of asks) expected.push((await sdk.chat.completions.create(ask)).choices[0].message.content);
  } finally {
    assert.equal(await plain.stop(), 0);
  }
  const mtp = await startServer(file, ['--alias', 'mtp', '--mtp', '--parallel', '2']);
  try {
    const sdk = new OpenAI({ baseURL: mtp.baseURL, apiKey: 'unused', maxRetries: 0 });
    const whole = await Promise.all(asks.map((ask) => sdk.chat.completions.create(ask)));
    assert.deepEqual(whole.map((r) => r.choices[0].message.content), expected);
    let text = '';
    for await (const chunk of await sdk.chat.completions.create({ ...asks[0], stream: true })) {
      text += chunk.choices[0]?.delta?.content ?? '';
    }
    assert.equal(text, expected[0]);
    const drafted = await metric(mtp.baseURL, 'ingot_draft_tokens_total');
    const accepted = await metric(mtp.baseURL, 'ingot_draft_tokens_accepted_total');
    assert.ok(accepted > 0 && accepted < drafted, JSON.stringify({ drafted, accepted }));
  } finally {
    assert.equal(await mtp.stop(), 0);
  }
});

test('--mtp on a model without a prediction block is refused at start, saying why', { skip }, async () => {
  const file = synthesize('tiny');
  let output = '';
  try {
    execFileSync(ingotBinary, ['serve', '--model', file, '--mtp', '--port', '0'], { stdio: 'pipe' });
    assert.fail('ingot serve started');
  } catch (error) {
    output = String(error.stderr);
  }
  assert.match(output, /multi-token-prediction/);
});
