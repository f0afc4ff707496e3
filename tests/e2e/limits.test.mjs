// Servers started with limits: an API key, a full queue, and shutdown.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { startServer, stopServer, sharedModel, haveShared } from './harness.mjs';

const skip = haveShared() ? false : '../shared is absent: no test models';
const model = 'stories260K';
const messages = [{ role: 'user', content: 'Once upon a time' }];

test('a missing or wrong API key is a 401 AuthenticationError; /health and /ready need none', { skip }, async () => {
  const server = await startServer(sharedModel('stories260K.gguf'), ['--api-key', 'sesame']);
  try {
    const wrong = new OpenAI({ baseURL: server.baseURL, apiKey: 'nope', maxRetries: 0 });
    await assert.rejects(wrong.models.list(), (e) => e instanceof OpenAI.AuthenticationError);
    const right = new OpenAI({ baseURL: server.baseURL, apiKey: 'sesame', maxRetries: 0 });
    assert.equal((await right.models.list()).data[0].id, model);
    const health = await fetch(`${server.origin}/health`);
    assert.equal(health.status, 200);
    const ready = await fetch(`${server.origin}/ready`);
    assert.deepEqual([ready.status, await ready.json()], [200, { status: 'ready' }]);
  } finally {
    await server.stop();
  }
});

test('GET / lists every route, and names the model only to a client with the key', { skip }, async () => {
  const server = await startServer(sharedModel('stories260K.gguf'), ['--api-key', 'sesame']);
  try {
    const open = await (await fetch(`${server.origin}/`)).json();
    assert.equal(open.model, undefined);
    for (const route of ['GET /', 'GET /health', 'POST /v1/chat/completions', 'POST /v1/embeddings',
      'POST /v1/rerank', 'POST /v1/messages', 'POST /v1/responses', 'GET /lora-adapters',
      'DELETE /v1/responses/{id}']) {
      assert.ok(open.endpoints.includes(route), `${route} missing from ${open.endpoints}`);
    }
    const keyed = await (await fetch(`${server.origin}/`, { headers: { authorization: 'Bearer sesame' } })).json();
    assert.equal(keyed.model, model);
    const head = await fetch(`${server.origin}/health`, { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.ok(open.endpoints.includes('GET /props'));
    assert.equal((await fetch(`${server.origin}/props`)).status, 401);
    const props = await (await fetch(`${server.origin}/props`, { headers: { authorization: 'Bearer sesame' } })).json();
    assert.equal(props.total_slots, 4);
    assert.ok(props.default_generation_settings.n_ctx > 0);
    assert.deepEqual(props.modalities, { vision: false, audio: false });
    assert.match(props.chat_template, /im_start/);
    assert.equal(props.model_path, `${model}.gguf`);
  } finally {
    await server.stop();
  }
});

test('a full queue is refused with 503 and Retry-After before any stream starts', { skip }, async () => {
  // The one slot must stay busy while the other requests arrive: tiny-qwen3
  // decoding thousands of tokens (ignore_eos) takes seconds, where
  // stories260K fills its whole context in milliseconds. The busy stream is
  // drained as it goes, so it is never cancelled as a slow reader.
  const server = await startServer(sharedModel('tiny-qwen3-f16.gguf'), ['--parallel', '1', '--max-queue', '0']);
  const client = new OpenAI({ baseURL: server.baseURL, apiKey: 'x', maxRetries: 0 });
  const qwen = 'tiny-qwen3-f16';
  try {
    const busy = await client.chat.completions.create(
      { model: qwen, messages, temperature: 1, stream: true, max_tokens: 3500, ignore_eos: true });
    const iterator = busy[Symbol.asyncIterator]();
    await iterator.next();  // the only slot is now taken
    const drained = (async () => {
      for (let r = await iterator.next(); !r.done; r = await iterator.next());
    })().catch(() => {});
    const refused = await fetch(`${server.baseURL}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: qwen, messages, stream: true }),
    });
    assert.equal(refused.status, 503);
    assert.equal(refused.headers.get('retry-after'), '1');
    assert.equal((await refused.json()).error.code, 'server_busy');
    await assert.rejects(
      client.chat.completions.create({ model: qwen, messages }),
      (e) => e instanceof OpenAI.InternalServerError && e.status === 503,
    );
    busy.controller.abort();
    await drained;
  } finally {
    await server.stop();
  }
});

test('SIGTERM lets in-flight streams finish, then the server exits 0', { skip }, async () => {
  const server = await startServer(sharedModel('stories260K.gguf'), ['--parallel', '2']);
  const client = new OpenAI({ baseURL: server.baseURL, apiKey: 'x', maxRetries: 0 });
  const streams = await Promise.all([0, 1].map(() => client.chat.completions.create(
    { model, messages, max_tokens: 64, temperature: 0, stream: true, logit_bias: { 2: -100 } })));
  const iterators = streams.map((s) => s[Symbol.asyncIterator]());
  for (const it of iterators) await it.next();  // both are running
  const exited = stopServer(server.proc, 'SIGTERM');
  for (const it of iterators) {
    let finish = null;
    for (let r = await it.next(); !r.done; r = await it.next()) {
      finish = r.value.choices[0]?.finish_reason ?? finish;
    }
    assert.equal(finish, 'length');
  }
  assert.equal(await exited, 0);
});

test('aborting a stream cancels its generation at once', { skip }, async () => {
  // tiny-qwen3 (150k-token vocabulary) takes long enough per token that the
  // abort lands mid-stream; left alone this request would fill the context.
  const server = await startServer(sharedModel('tiny-qwen3-f16.gguf'), ['--parallel', '1']);
  const client = new OpenAI({ baseURL: server.baseURL, apiKey: 'x', maxRetries: 0 });
  const metric = async (name) => {
    const text = await (await fetch(`${server.origin}/metrics`)).text();
    return Number(text.split('\n').find((l) => l.startsWith(`${name} `)).split(' ')[1]);
  };
  try {
    const controller = new AbortController();
    const endless = await client.chat.completions.create(
      { model: 'tiny-qwen3-f16', messages, temperature: 1, stream: true,
        logit_bias: { 151643: -100, 151645: -100 } },
      { signal: controller.signal },
    );
    // The SDK ends the iteration quietly once its signal aborts.
    let pieces = 0;
    for await (const chunk of endless) {
      if (chunk.choices[0]?.delta?.content) pieces += 1;
      if (pieces === 3) controller.abort();
    }
    assert.ok(pieces >= 3);
    // One slot: this request runs only once the aborted one has let go.
    const next = await client.chat.completions.create({ model: 'tiny-qwen3-f16', messages, max_tokens: 4 });
    assert.equal(next.choices[0].finish_reason, 'length');
    assert.equal(await metric('ingot_requests_cancelled_total'), 1);
    const generated = (await metric('ingot_completion_tokens_total')) - 4;
    assert.ok(generated < 500, `the aborted stream generated ${generated} tokens`);
  } finally {
    await server.stop();
  }
});

test('the server writes one access-log line per request without being asked', { skip, timeout: 30_000 }, async () => {
  const server = await startServer(sharedModel('stories260K.gguf'));
  // The line is written as the request ends, possibly after the reply
  // reached the client: wait for it on the server's stderr.
  const line = new Promise((resolve) => {
    const check = () => {
      const found = server.stderr().split('\n').find((l) => l.includes('route=/v1/chat/completions'));
      if (found) {
        server.proc.stderr.off('data', check);
        resolve(found);
      }
    };
    server.proc.stderr.on('data', check);
    check();
  });
  try {
    const client = new OpenAI({ baseURL: server.baseURL, apiKey: 'x', maxRetries: 0 });
    await client.chat.completions.create({ model, messages, max_tokens: 3 });
    const access = await line;
    assert.match(access, /info access method=POST route=\/v1\/chat\/completions status=200 /);
    assert.match(access, /completion_tokens=3 /);
    assert.match(access, /cancelled=false/);
  } finally {
    await server.stop();
  }
});

test('--logit-bias applies to every request and a request\'s own bias adds to it', { skip }, async () => {
  // 151645 is Qwen3's <|im_end|>: pushed far up, a greedy reply ends at once.
  const server = await startServer(sharedModel('tiny-qwen3-f16.gguf'), ['--logit-bias', '151645+100']);
  const client = new OpenAI({ baseURL: server.baseURL, apiKey: 'x', maxRetries: 0 });
  try {
    const request = { model: 'tiny-qwen3-f16', messages, temperature: 0, max_tokens: 4 };
    const ended = await client.chat.completions.create(request);
    assert.equal(ended.choices[0].finish_reason, 'stop');
    assert.equal(ended.usage.completion_tokens, 1);
    const cancelled = await client.chat.completions.create({ ...request, logit_bias: { 151645: -100 } });
    assert.equal(cancelled.usage.completion_tokens, 4);
  } finally {
    assert.equal(await server.stop(), 0);
  }
});
