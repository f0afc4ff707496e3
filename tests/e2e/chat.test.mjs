// The OpenAI SDK against a real `ingot serve`: replies, streams, usage,
// stop, max_tokens, seeds, logprobs, models, and the SDK's error classes.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { startServer, sharedModel, haveShared } from './harness.mjs';

const skip = haveShared() ? false : '../shared is absent: no test models';
let server;
let client;

before(async () => {
  if (skip) return;
  server = await startServer(sharedModel('stories260K.gguf'), ['--parallel', '4', '--alias', 'stories']);
  client = new OpenAI({ baseURL: server.baseURL, apiKey: 'unused', maxRetries: 0 });
});

after(async () => {
  if (server) assert.equal(await server.stop(), 0);
});

const model = 'stories260K';
const messages = [{ role: 'user', content: 'Once upon a time' }];

test('a whole reply has the OpenAI shape and real usage', { skip }, async () => {
  const reply = await client.chat.completions.create({ model, messages, max_tokens: 12, temperature: 0 });
  assert.match(reply.id, /^chatcmpl-/);
  assert.equal(reply.object, 'chat.completion');
  assert.equal(reply.model, model);
  assert.equal(reply.choices.length, 1);
  assert.equal(reply.choices[0].message.role, 'assistant');
  assert.equal(typeof reply.choices[0].message.content, 'string');
  assert.ok(reply.choices[0].message.content.length > 0);
  assert.equal(reply.choices[0].finish_reason, 'length');
  assert.equal(reply.usage.completion_tokens, 12);
  assert.ok(reply.usage.prompt_tokens > 4);
  assert.equal(reply.usage.total_tokens, reply.usage.prompt_tokens + 12);
  assert.equal(typeof reply.usage.prompt_tokens_details.cached_tokens, 'number');
});

test('a stream reassembles to the whole reply and ends with usage', { skip }, async () => {
  const whole = await client.chat.completions.create({ model, messages, max_tokens: 16, temperature: 0 });
  const stream = await client.chat.completions.create({
    model, messages, max_tokens: 16, temperature: 0, stream: true, stream_options: { include_usage: true },
  });
  let text = '';
  let roles = 0;
  let finish = null;
  let usage = null;
  for await (const chunk of stream) {
    assert.equal(chunk.object, 'chat.completion.chunk');
    if (chunk.usage) usage = chunk.usage;
    if (chunk.choices.length === 0) continue;
    const choice = chunk.choices[0];
    if (choice.delta.role) roles += 1;
    if (choice.delta.content) text += choice.delta.content;
    if (choice.finish_reason) finish = choice.finish_reason;
  }
  assert.equal(roles, 1);
  assert.equal(text, whole.choices[0].message.content);
  assert.equal(finish, 'length');
  assert.equal(usage.completion_tokens, 16);
});

test('the second turn reports cached prompt tokens', { skip }, async () => {
  const first = await client.chat.completions.create({ model, messages, max_tokens: 8, temperature: 0 });
  const next = [...messages, first.choices[0].message, { role: 'user', content: 'And then?' }];
  const second = await client.chat.completions.create({ model, messages: next, max_tokens: 8, temperature: 0 });
  assert.ok(second.usage.prompt_tokens_details.cached_tokens > 0, JSON.stringify(second.usage));
});

test('a stop string ends the reply and is not included', { skip }, async () => {
  const whole = await client.chat.completions.create({ model, messages, max_tokens: 24, temperature: 0 });
  const text = whole.choices[0].message.content;
  const stop = text.slice(6, 10);
  const stopped = await client.chat.completions.create({ model, messages, max_tokens: 24, temperature: 0, stop });
  assert.equal(stopped.choices[0].finish_reason, 'stop');
  assert.equal(stopped.choices[0].message.content, text.slice(0, text.indexOf(stop)));
});

test('the same seed gives the same text', { skip }, async () => {
  const ask = () => client.chat.completions.create({ model, messages, max_tokens: 20, temperature: 1, seed: 42 });
  const [a, b] = await Promise.all([ask(), ask()]);
  assert.equal(a.choices[0].message.content, b.choices[0].message.content);
});

test('logprobs come with each token', { skip }, async () => {
  const reply = await client.chat.completions.create({
    model, messages, max_tokens: 5, temperature: 0, logprobs: true, top_logprobs: 3,
  });
  const content = reply.choices[0].logprobs.content;
  assert.equal(content.length, 5);
  for (const entry of content) {
    assert.ok(entry.logprob <= 0);
    assert.equal(entry.top_logprobs.length, 3);
    assert.ok(entry.top_logprobs[0].logprob >= entry.top_logprobs[2].logprob);
  }
});

test('models.list names the served model', { skip }, async () => {
  const page = await client.models.list();
  assert.equal(page.data.length, 1);
  assert.equal(page.data[0].id, model);
  assert.equal(page.data[0].object, 'model');
});

test('an alias is accepted as the model name', { skip }, async () => {
  const reply = await client.chat.completions.create({ model: 'stories', messages, max_tokens: 2 });
  assert.equal(reply.model, 'stories');
});

test('the SDK raises its error classes for 400 and 404', { skip }, async () => {
  await assert.rejects(
    client.chat.completions.create({ model, messages, temperature: 7 }),
    (e) => e instanceof OpenAI.BadRequestError && e.param === 'temperature',
  );
  await assert.rejects(
    client.chat.completions.create({ model: 'gpt-nothing', messages }),
    (e) => e instanceof OpenAI.NotFoundError && e.code === 'model_not_found',
  );
  await assert.rejects(
    client.chat.completions.create({ model, messages: [] }),
    (e) => e instanceof OpenAI.BadRequestError && e.param === 'messages',
  );
});

test('prompt plus max_tokens beyond the context is context_length_exceeded', { skip }, async () => {
  await assert.rejects(
    client.chat.completions.create({ model, messages, max_tokens: 100000 }),
    (e) => e instanceof OpenAI.BadRequestError,
  );
  const long = 'Once upon a time there was a dog. '.repeat(1000);
  await assert.rejects(
    client.chat.completions.create({ model, messages: [{ role: 'user', content: long }], max_tokens: 4 }),
    (e) => e instanceof OpenAI.BadRequestError && e.code === 'context_length_exceeded',
  );
});

test('413 for a body over the limit and 415 for a non-JSON body', { skip }, async () => {
  const big = await fetch(`${server.baseURL}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model, messages: [{ role: 'user', content: 'x'.repeat(9 << 20) }] }),
  }).catch((e) => e);
  if (big instanceof Error) {
    // The server may close before the client finishes sending a body it refused.
    assert.match(String(big.cause ?? big), /(EPIPE|ECONNRESET|other side closed|fetch failed)/);
  } else {
    assert.equal(big.status, 413);
  }
  const text = await fetch(`${server.baseURL}/chat/completions`, {
    method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hello',
  });
  assert.equal(text.status, 415);
  assert.equal((await text.json()).error.type, 'invalid_request_error');
});

test('8 concurrent streams on 4 slots all complete', { skip }, async () => {
  const prompts = Array.from({ length: 8 }, (_, i) => `Story number ${i}:`);
  const results = await Promise.all(prompts.map(async (content) => {
    const stream = await client.chat.completions.create({
      model, messages: [{ role: 'user', content }], max_tokens: 24, temperature: 0, stream: true,
    });
    let finish = null;
    let text = '';
    for await (const chunk of stream) {
      if (chunk.choices[0]?.delta?.content) text += chunk.choices[0].delta.content;
      if (chunk.choices[0]?.finish_reason) finish = chunk.choices[0].finish_reason;
    }
    return { finish, text };
  }));
  for (const r of results) {
    assert.ok(['stop', 'length'].includes(r.finish));
  }
});

