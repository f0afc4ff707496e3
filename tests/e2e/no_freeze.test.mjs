// One request must never freeze the server: a hostile body is parsed off
// the thread that serves every connection, in time linear in its size,
// and refused past the limits docs/api.md states.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import { readFileSync } from 'node:fs';
import { startServer, sharedModel, haveShared } from './harness.mjs';

const skip = haveShared() ? false : '../shared is absent: no test models';
const model = 'stories260K';

// POSTs `body` (a string) through a raw request; resolves to the status
// and the parsed reply once the whole answer is read.
function post(server, route, body) {
  return new Promise((resolve, reject) => {
    const request = http.request(`${server.origin}${route}`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
    }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => { text += chunk; });
      response.on('end', () => resolve({ status: response.statusCode, text }));
    });
    request.on('error', reject);
    request.end(body);
  });
}

// How long /health takes to answer, in milliseconds.
async function healthLatency(server) {
  const start = performance.now();
  const response = await fetch(`${server.origin}/health`);
  assert.equal(response.status, 200);
  return performance.now() - start;
}

function chatWith(extra) {
  return `{"model":"${model}","messages":[{"role":"user","content":"hi"}],"max_tokens":2,${extra}}`;
}

test('a body of 400,000 objects neither stalls /health nor goes unanswered', { skip }, async () => {
  const server = await startServer(sharedModel('stories260K.gguf'), ['--parallel', '2']);
  try {
    const objects = new Array(400_000).fill('{}').join(',');
    let answered = false;
    const big = post(server, '/v1/chat/completions', chatWith(`"junk":[${objects}]`))
      .finally(() => { answered = true; });
    // /health, asked again and again for as long as the body is in the
    // server's hands, answers every time within a second.
    let slowest = 0;
    do slowest = Math.max(slowest, await healthLatency(server)); while (!answered);
    const answer = await big;
    assert.equal(answer.status, 200, answer.text);
    assert.ok(slowest < 1000, `/health took ${slowest} ms beside the large body`);
  } finally {
    await server.stop();
  }
});

// The peak resident memory of a process, in MiB (VmHWM).
function peakMemoryMiB(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(status.match(/VmHWM:\s+(\d+)/)[1]) / 1024;
}

function wideSchemaBody(properties) {
  const props = {};
  for (let i = 0; i < properties; ++i) props[`p${i}`] = { type: 'integer' };
  return chatWith(`"response_format":${JSON.stringify({ type: 'json_schema', json_schema: {
    name: 'wide', strict: true, schema: { type: 'object', properties: props, required: Object.keys(props) } } })}`);
}

function chainedGrammarBody(rules) {
  let grammar = 'root ::= r0\n';
  for (let i = 0; i < rules - 1; ++i) grammar += `r${i} ::= "a" r${i + 1}\n`;
  grammar += `r${rules - 1} ::= "a"\n`;
  return chatWith(`"grammar":${JSON.stringify(grammar)}`);
}

function longEnumBody(values) {
  const schema = { enum: Array.from({ length: values }, (_, i) => `value${i}`) };
  return chatWith(`"response_format":${JSON.stringify({ type: 'json_schema', json_schema: { name: 'e', schema } })}`);
}

// The memory bound: the model is small, so what the hostile requests may
// hold on top of the server's own start-up size stays well under this.
const kMemoryBoundMiB = 512;

test('hostile bodies, schemas and grammars together leave the server answering', { skip }, async () => {
  const server = await startServer(sharedModel('stories260K.gguf'), ['--parallel', '2']);
  try {
    const objects = new Array(400_000).fill('{}').join(',');
    const hostile = [
      post(server, '/v1/chat/completions', chatWith(`"junk":[${objects}]`)),
      post(server, '/v1/chat/completions', wideSchemaBody(10_000)),
      post(server, '/v1/chat/completions', chainedGrammarBody(40_000)),
      post(server, '/v1/chat/completions', longEnumBody(100_000)),
    ];
    let settled = false;
    const all = Promise.all(hostile).finally(() => { settled = true; });
    const sent = performance.now();
    let smallLatency = 0;
    const small = post(server, '/v1/chat/completions', chatWith('"temperature":0'))
      .finally(() => { smallLatency = performance.now() - sent; });
    let slowest = 0;
    do slowest = Math.max(slowest, await healthLatency(server)); while (!settled);
    const answers = await all;
    for (const answer of answers) assert.equal(answer.status, 200, answer.text.slice(0, 300));
    const smallAnswer = await small;
    assert.equal(smallAnswer.status, 200, smallAnswer.text);
    assert.equal(JSON.parse(smallAnswer.text).usage.completion_tokens, 2);
    assert.ok(smallLatency < 5000, `a two-token request took ${smallLatency} ms beside them`);
    assert.ok(slowest < 1000, `/health took ${slowest} ms beside the hostile requests`);
    const peak = peakMemoryMiB(server.proc.pid);
    assert.ok(peak < kMemoryBoundMiB, `the server's resident memory peaked at ${peak} MiB`);
  } finally {
    await server.stop();
  }
});

test('an object of 100,000 keys is refused with invalid_json naming the limit', { skip }, async () => {
  const server = await startServer(sharedModel('stories260K.gguf'));
  try {
    const keys = Array.from({ length: 100_000 }, (_, i) => `"k${i}":0`).join(',');
    const answer = await post(server, '/v1/chat/completions', chatWith(`"junk":{${keys}}`));
    assert.equal(answer.status, 400, answer.text);
    const error = JSON.parse(answer.text).error;
    assert.equal(error.code, 'invalid_json');
    assert.match(error.message, /more than 10000 keys/);
    assert.ok((await healthLatency(server)) < 1000);
  } finally {
    await server.stop();
  }
});

// Opens `count` connections that send nothing (idle keep-alive ones, as far
// as the server can tell) and resolves once all are connected.
async function idleConnections(server, count) {
  const sockets = [];
  for (let i = 0; i < count; ++i) {
    const socket = net.connect(server.port, '127.0.0.1');
    socket.on('error', () => {});
    await new Promise((resolve) => socket.once('connect', resolve));
    sockets.push(socket);
  }
  return sockets;
}

test('at --max-connections the oldest idle connection makes room for a request', { skip }, async () => {
  const server = await startServer(sharedModel('stories260K.gguf'), ['--max-connections', '4']);
  const sockets = await idleConnections(server, 6);
  try {
    const health = await fetch(`${server.origin}/health`);
    assert.equal(health.status, 200);
    assert.ok(sockets[0].closed || await new Promise((resolve) => sockets[0].once('close', () => resolve(true))));
  } finally {
    sockets.forEach((socket) => socket.destroy());
    await server.stop();
  }
});

test('out of file descriptors, idle connections give theirs back to a request', { skip }, async () => {
  // The cap is set past the descriptor limit, so that accept itself fails
  // with EMFILE, as it does when the server's other files use descriptors.
  const server = await startServer(sharedModel('stories260K.gguf'), ['--max-connections', '100000'],
    { launcher: ['prlimit', '--nofile=96'] });
  const sockets = await idleConnections(server, 120);
  try {
    const health = await fetch(`${server.origin}/health`);
    assert.equal(health.status, 200);
    assert.match(server.stderr(), /out of file descriptors/);
  } finally {
    sockets.forEach((socket) => socket.destroy());
    await server.stop();
  }
});
