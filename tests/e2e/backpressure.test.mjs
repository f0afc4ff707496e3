// Backpressure: a busy server or a pausing reader slows a request down and
// never cancels it; only a client that stops reading for
// --slow-client-timeout is dropped, and its slot serves the next request.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import OpenAI from 'openai';
import { startServer, sharedModel, haveShared } from './harness.mjs';

const skip = haveShared() ? false : '../shared is absent: no test models';
const modelFile = 'tiny-qwen3-f16.gguf';
const model = 'tiny-qwen3-f16';

async function metric(server, name) {
  const text = await (await fetch(`${server.origin}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line === undefined ? NaN : Number(line.split(' ')[1]);
}

// Polls /metrics until `name` reaches `value`: the test waits on the
// server's state, never on a clock.
async function untilMetric(server, name, value) {
  while ((await metric(server, name)) !== value) await new Promise((r) => setImmediate(r));
}

// A stream read through a raw socket, so that the test decides when bytes
// are read: `pause()` stops reading (the socket's buffers then fill and the
// server's writes block); `rest()` reads everything after.
function openStream(server, body) {
  return new Promise((resolve, reject) => {
    const request = http.request(`${server.baseURL}/chat/completions`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
    }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => { text += chunk; });
      const ended = new Promise((done) => response.on('end', done));
      response.on('error', () => {});
      resolve({
        status: response.statusCode,
        pause: () => response.pause(),
        rest: async () => { response.resume(); await ended; return text; },
        destroy: () => request.destroy(),
      });
    });
    request.on('error', reject);
    request.end(JSON.stringify(body));
  });
}

// Each chunk carries 20 alternatives, so a long reply is megabytes: more
// than the sockets buffer between the server and a reader that stopped.
const bulky = {
  model, messages: [{ role: 'user', content: 'Tell me a very long story.' }], stream: true,
  max_tokens: 3500, temperature: 0, ignore_eos: true, logprobs: true, top_logprobs: 20,
  chat_template_kwargs: { enable_thinking: false },
};

function streamContent(text) {
  const events = text.split('\n\n').filter((e) => e.startsWith('data: ')).map((e) => e.slice(6));
  const content = events.filter((e) => e !== '[DONE]')
    .map((e) => JSON.parse(e).choices?.[0]?.delta?.content ?? '').join('');
  return { events, content };
}

test('whole replies with a schema all succeed while 6 MiB prompts keep the server busy', { skip }, async () => {
  const server = await startServer(sharedModel(modelFile), ['--parallel', '4', '--ctx-size', '4096']);
  try {
    const client = new OpenAI({ baseURL: server.baseURL, apiKey: 'unused', maxRetries: 0 });
    const schema = {
      type: 'object', properties: { story: { type: 'string' }, lines: { type: 'array', items: { type: 'string' } } },
      required: ['story', 'lines'],
    };
    const huge = 'The quick brown fox jumps over the lazy dog. '.repeat(Math.ceil((6 << 20) / 45));
    const floods = Array.from({ length: 6 }, () => client.chat.completions.create({
      model, messages: [{ role: 'user', content: huge }], max_tokens: 4,
    }).then(() => 'answered', (error) => error.status));
    const replies = [];
    for (let i = 0; i < 24; i += 8) {
      replies.push(...await Promise.allSettled(Array.from({ length: 8 }, (_, j) => client.chat.completions.create({
        model, messages: [{ role: 'user', content: `Write story number ${i + j}.` }],
        max_tokens: 300, seed: i + j, response_format: { type: 'json_schema', json_schema: { name: 'story', schema } },
        chat_template_kwargs: { enable_thinking: false },
      }))));
    }
    const failures = replies.filter((r) => r.status === 'rejected').map((r) => String(r.reason));
    assert.deepEqual(failures, []);
    for (const r of replies) assert.ok(['stop', 'length'].includes(r.value.choices[0].finish_reason));
    // Too long for the context, each: refused as the client's error, not the server's.
    assert.deepEqual(await Promise.all(floods), [400, 400, 400, 400, 400, 400]);
  } finally {
    assert.equal(await server.stop(), 0);
  }
});

test('a stream whose reader pauses gets its whole reply, the same as one read at once', { skip }, async () => {
  const server = await startServer(sharedModel(modelFile), ['--parallel', '2', '--ctx-size', '4096']);
  try {
    const straight = await openStream(server, bulky);
    const expected = streamContent(await straight.rest());
    assert.equal(expected.events.at(-1), '[DONE]');

    const paused = await openStream(server, bulky);
    assert.equal(paused.status, 200);
    paused.pause();
    await untilMetric(server, 'ingot_requests_paused', 1);
    const got = streamContent(await paused.rest());
    assert.equal(got.events.at(-1), '[DONE]');
    assert.equal(got.content, expected.content);
    assert.equal(await metric(server, 'ingot_slow_clients_dropped_total'), 0);
  } finally {
    assert.equal(await server.stop(), 0);
  }
});

test('with --slow-client-timeout 2s a client that stops reading is dropped and its slot serves on', { skip }, async () => {
  const server = await startServer(sharedModel(modelFile),
    ['--parallel', '1', '--ctx-size', '4096', '--slow-client-timeout', '2s']);
  try {
    const stalled = await openStream(server, bulky);
    stalled.pause();
    await untilMetric(server, 'ingot_slow_clients_dropped_total', 1);
    const client = new OpenAI({ baseURL: server.baseURL, apiKey: 'unused', maxRetries: 0 });
    const next = await client.chat.completions.create({
      model, messages: [{ role: 'user', content: 'Hello' }], max_tokens: 4,
    });
    assert.ok(next.choices[0].message);
    // The engine publishes its counts once per step, after the step's
    // events: the reply can arrive a moment before its slot is counted free.
    await untilMetric(server, 'ingot_requests_active', 0);
    stalled.destroy();
  } finally {
    assert.equal(await server.stop(), 0);
  }
});
