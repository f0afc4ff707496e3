// Retrieval beyond decoder embeddings: /v1/rerank through fetch on a BERT
// cross-encoder and on a Qwen3-Reranker (synthetic, with real vocabularies),
// their scores against llama.cpp's (tests/fixtures/embeddings/*-rank.json,
// each pair formatted as llama-server formats it); a BERT embedder through
// the openai SDK; and each model refusing what it is not for with the
// SDK's error classes.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import OpenAI from 'openai';
import { haveShared, startServer, synthesizedModel } from './harness.mjs';

const skip = !haveShared() && '../shared is absent';
const fixture = (name) => JSON.parse(readFileSync(
  path.join(import.meta.dirname, '..', 'fixtures', 'embeddings', `${name}.json`), 'utf8'));
let dir;

const norm = (v) => Math.sqrt(v.reduce((s, x) => s + x * x, 0));
const cosine = (a, b) => a.reduce((s, x, i) => s + x * b[i], 0) / (norm(a) * norm(b));

before(() => {
  if (skip) return;
  dir = mkdtempSync(path.join(os.tmpdir(), 'ingot-rerank-'));
});

after(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function withServer(shape, args, body) {
  const server = await startServer(synthesizedModel(dir, shape, 'f16'), ['--parallel', '2', ...args]);
  try {
    await body(server);
  } finally {
    assert.equal(await server.stop(), 0);
  }
}

async function rerank(server, body, route = '/v1/rerank') {
  const response = await fetch(`${server.baseURL.replace(/\/v1$/, '')}${route}`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

// The documents come back best first, each score within 1e-3 of llama.cpp's.
async function expectRanksAsLlamaCpp(server, expected) {
  const documents = expected.cases.map((c) => c.document);
  const { status, body } = await rerank(server, { query: expected.query, documents });
  assert.equal(status, 200, JSON.stringify(body));
  assert.equal(body.object, 'list');
  const theirs = expected.cases.map((c, index) => ({ index, score: c.scores[0] }))
    .sort((a, b) => b.score - a.score);
  assert.deepEqual(body.results.map((r) => r.index), theirs.map((r) => r.index));
  for (const result of body.results) {
    assert.ok(Math.abs(result.relevance_score - expected.cases[result.index].scores[0]) < 1e-3,
      `${result.index}: ${result.relevance_score}`);
    assert.equal(result.document, undefined);
  }
  const tokens = expected.cases.reduce((n, c) => n + c.tokens.length, 0);
  assert.equal(body.usage.prompt_tokens, tokens);
  assert.equal(body.usage.total_tokens, tokens);
}

test('a BERT reranker orders and scores documents as llama.cpp does', { skip }, async () => {
  const expected = fixture('tiny-bert-reranker-f16-rank');
  await withServer('tiny-bert-reranker', ['--alias', 'reranker'], async (server) => {
    await expectRanksAsLlamaCpp(server, expected);
    const documents = expected.cases.map((c) => c.document);
    const top = await rerank(server, { model: 'reranker', query: expected.query, documents, top_n: 2, return_documents: true }, '/rerank');
    assert.equal(top.status, 200);
    assert.equal(top.body.results.length, 2);
    for (const result of top.body.results) assert.equal(result.document.text, documents[result.index]);
    const sdk = new OpenAI({ baseURL: server.baseURL, apiKey: 'unused', maxRetries: 0 });
    await assert.rejects(sdk.chat.completions.create({ model: 'reranker', messages: [{ role: 'user', content: 'hi' }] }),
      (error) => error instanceof OpenAI.BadRequestError && /reranking model/.test(error.message));
    await assert.rejects(sdk.embeddings.create({ model: 'reranker', input: 'hi' }),
      (error) => error instanceof OpenAI.BadRequestError && /\/v1\/rerank/.test(error.message));
  });
});

test('a Qwen3 reranker scores through its rerank template as llama.cpp does', { skip }, async () => {
  await withServer('tiny-qwen3-reranker', [], async (server) => {
    await expectRanksAsLlamaCpp(server, fixture('tiny-qwen3-reranker-f16-rank'));
  });
});

test('rerank refuses bad bodies with 400s naming the field', { skip }, async () => {
  await withServer('tiny-bert-reranker', ['--max-embedding-inputs', '3'], async (server) => {
    for (const [body, param] of [
      [{ documents: ['a'] }, 'query'],
      [{ query: 'q', documents: [] }, 'documents'],
      [{ query: 'q', documents: ['a', ''] }, 'documents'],
      [{ query: 'q', documents: ['a', 'b', 'c', 'd'] }, 'documents'],
      [{ query: 'q', documents: ['a'], top_n: 0 }, 'top_n'],
      [{ model: 'elsewhere', query: 'q', documents: ['a'] }, 'model'],
    ]) {
      const { status, body: reply } = await rerank(server, body);
      assert.ok(status === 400 || status === 404, `${JSON.stringify(body)}: ${status}`);
      assert.equal(reply.error.param, param, JSON.stringify(reply));
    }
  });
});

test('a chat model refuses /v1/rerank, saying it has no classification head', { skip }, async () => {
  await withServer('tiny', [], async (server) => {
    const { status, body } = await rerank(server, { query: 'q', documents: ['a'] });
    assert.equal(status, 400);
    assert.equal(body.error.code, 'model_not_reranker');
    assert.match(body.error.message, /classification head/);
  });
});

test('a BERT embedder serves llama.cpp embeddings through the SDK and refuses chat', { skip }, async () => {
  const expected = fixture('tiny-bert-f16-cls');
  await withServer('tiny-bert', ['--alias', 'bge'], async (server) => {
    const sdk = new OpenAI({ baseURL: server.baseURL, apiKey: 'unused', maxRetries: 0 });
    const reply = await sdk.embeddings.create({ model: 'bge', input: expected.cases.map((c) => c.prompt) });
    assert.equal(reply.data.length, expected.cases.length);
    for (let i = 0; i < expected.cases.length; ++i) {
      assert.equal(reply.data[i].embedding.length, expected.n_embd);
      assert.ok(cosine(reply.data[i].embedding, expected.cases[i].embedding) >= 0.9999, String(i));
    }
    assert.equal(reply.usage.prompt_tokens, expected.cases.reduce((n, c) => n + c.tokens.length, 0));
    await assert.rejects(sdk.completions.create({ model: 'bge', prompt: 'hi' }),
      (error) => error instanceof OpenAI.BadRequestError && /embedding model/.test(error.message));
    const { status } = await rerank(server, { query: 'q', documents: ['a'] });
    assert.equal(status, 400);
  });
});
