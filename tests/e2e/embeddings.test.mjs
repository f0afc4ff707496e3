// /v1/embeddings through the official openai package, on a decoder model
// served with --embeddings (last-token pooling): the vectors against
// llama.cpp's (tests/fixtures/embeddings), a string, a list, token ids,
// base64 (the SDK's default, which it decodes) against floats,
// `dimensions`, and the refusals.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import OpenAI from 'openai';
import { haveShared, startServer, synthesizedModel } from './harness.mjs';

const skip = !haveShared() && '../shared is absent';
const model = 'tiny';
const fixture = JSON.parse(readFileSync(
  path.join(import.meta.dirname, '..', 'fixtures', 'embeddings', 'tiny-f16-last.json'), 'utf8'));
let server;
let client;
let dir;
let file;

const norm = (v) => Math.sqrt(v.reduce((s, x) => s + x * x, 0));
const normalized = (v) => { const n = norm(v); return v.map((x) => x / n); };
const cosine = (a, b) => a.reduce((s, x, i) => s + x * b[i], 0) / (norm(a) * norm(b));

before(async () => {
  if (skip) return;
  dir = mkdtempSync(path.join(os.tmpdir(), 'ingot-embeddings-'));
  file = synthesizedModel(dir, model, 'f16');
  server = await startServer(file, ['--parallel', '2', '--alias', model, '--embeddings', '--max-embedding-inputs', '8']);
  client = new OpenAI({ baseURL: server.baseURL, apiKey: 'unused', maxRetries: 0 });
});

after(async () => {
  if (server) assert.equal(await server.stop(), 0);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('an input string gives the llama.cpp embedding, normalized', { skip }, async () => {
  const reply = await client.embeddings.create({ model, input: fixture.cases[0].prompt });
  assert.equal(reply.object, 'list');
  assert.equal(reply.data.length, 1);
  const vector = reply.data[0].embedding;
  assert.equal(vector.length, fixture.n_embd);
  assert.ok(Math.abs(norm(vector) - 1) < 1e-5, String(norm(vector)));
  assert.ok(cosine(vector, fixture.cases[0].embedding) >= 0.9999);
  assert.equal(reply.usage.prompt_tokens, fixture.cases[0].tokens.length);
  assert.equal(reply.usage.total_tokens, fixture.cases[0].tokens.length);
});

test('a list of inputs, text and token ids, gives one vector each in order', { skip }, async () => {
  const input = fixture.cases.map((c) => c.prompt);
  const reply = await client.embeddings.create({ model, input });
  assert.deepEqual(reply.data.map((d) => d.index), [0, 1, 2]);
  for (let i = 0; i < input.length; ++i) {
    assert.ok(cosine(reply.data[i].embedding, fixture.cases[i].embedding) >= 0.9999, String(i));
  }
  const ids = await client.embeddings.create({ model, input: fixture.cases.map((c) => c.tokens) });
  for (let i = 0; i < input.length; ++i) {
    assert.ok(cosine(ids.data[i].embedding, reply.data[i].embedding) >= 0.999999, String(i));
  }
  const one = await client.embeddings.create({ model, input: fixture.cases[1].tokens });
  assert.ok(cosine(one.data[0].embedding, reply.data[1].embedding) >= 0.999999);
});

test('base64, as the SDK asks by default, decodes to the floats', { skip }, async () => {
  const input = fixture.cases[2].prompt;
  const floats = await client.embeddings.create({ model, input, encoding_format: 'float' });
  const decoded = await client.embeddings.create({ model, input });  // base64 on the wire
  const raw = await fetch(`${server.baseURL}/embeddings`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ model, input, encoding_format: 'base64' }),
  }).then((r) => r.json());
  assert.equal(typeof raw.data[0].embedding, 'string');
  const a = floats.data[0].embedding;
  const b = decoded.data[0].embedding;
  assert.equal(a.length, b.length);
  for (let i = 0; i < a.length; ++i) assert.equal(Math.fround(a[i]), b[i]);
});

test('dimensions keeps the first ones, normalized again', { skip }, async () => {
  const reply = await client.embeddings.create({ model, input: fixture.cases[0].prompt, dimensions: 64 });
  const vector = reply.data[0].embedding;
  assert.equal(vector.length, 64);
  assert.ok(Math.abs(norm(vector) - 1) < 1e-5);
  assert.ok(cosine(vector, normalized(fixture.cases[0].embedding.slice(0, 64))) >= 0.9999);
});

test('an empty input, too many inputs or a bad format are 400s naming input', { skip }, async () => {
  await assert.rejects(client.embeddings.create({ model, input: ['fine', ''] }), (error) => {
    assert.ok(error instanceof OpenAI.BadRequestError);
    assert.equal(error.param, 'input');
    assert.match(error.message, /input\[1\]/);
    return true;
  });
  await assert.rejects(client.embeddings.create({ model, input: Array(9).fill('x') }),
    (error) => error instanceof OpenAI.BadRequestError && error.param === 'input');
  await assert.rejects(client.embeddings.create({ model, input: 'x', encoding_format: 'hex' }),
    (error) => error instanceof OpenAI.BadRequestError && error.param === 'encoding_format');
  await assert.rejects(client.embeddings.create({ model, input: [[]] }),
    (error) => error instanceof OpenAI.BadRequestError && error.param === 'input');
});

test('a server started without --embeddings refuses them with a 400 that says so', { skip }, async () => {
  const chat = await startServer(file, ['--parallel', '1', '--alias', model]);
  try {
    const sdk = new OpenAI({ baseURL: chat.baseURL, apiKey: 'unused', maxRetries: 0 });
    await assert.rejects(sdk.embeddings.create({ model, input: 'hi' }), (error) => {
      assert.ok(error instanceof OpenAI.BadRequestError);
      assert.match(error.message, /--embeddings/);
      return true;
    });
  } finally {
    assert.equal(await chat.stop(), 0);
  }
});

test('an embedding model serves embeddings unasked and refuses chat, saying what it is for', { skip }, async () => {
  const embedder = synthesizedModel(dir, 'tiny-qwen3-embedding', 'f16');
  const served = await startServer(embedder, ['--parallel', '1', '--alias', 'tiny-qwen3-embedding']);
  try {
    const sdk = new OpenAI({ baseURL: served.baseURL, apiKey: 'unused', maxRetries: 0 });
    const reply = await sdk.embeddings.create({ model: 'tiny-qwen3-embedding', input: 'hi' });
    assert.equal(reply.data[0].embedding.length, 256);
    for (const ask of [
      () => sdk.chat.completions.create({ model: 'tiny-qwen3-embedding', messages: [{ role: 'user', content: 'hi' }] }),
      () => sdk.completions.create({ model: 'tiny-qwen3-embedding', prompt: 'hi' }),
    ]) {
      await assert.rejects(ask(), (error) => {
        assert.ok(error instanceof OpenAI.BadRequestError);
        assert.match(error.message, /embedding model/);
        return true;
      });
    }
  } finally {
    assert.equal(await served.stop(), 0);
  }
});

test('concurrent requests of many inputs all succeed: none is refused for the others inputs', { skip }, async () => {
  // Six requests of eight inputs on two slots: 48 inputs, more than the
  // queue holds, yet each request keeps only as many in flight as there
  // are slots and waits for its own when the queue is full.
  const input = Array.from({ length: 8 }, (_, i) => `${fixture.cases[i % 3].prompt} ${i}`);
  const replies = await Promise.all(Array.from({ length: 6 },
    () => client.embeddings.create({ model, input, encoding_format: 'float' })));
  for (const reply of replies) {
    assert.equal(reply.data.length, 8);
    for (let i = 0; i < 8; ++i) {
      assert.ok(cosine(reply.data[i].embedding, replies[0].data[i].embedding) >= 0.999999, String(i));
    }
  }
});
