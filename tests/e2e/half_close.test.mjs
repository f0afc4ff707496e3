// A client that half-closes its connection after sending (shutdown of its
// write side) still reads: its stream runs to the end. A whole reply's
// client cannot be told from one that left, so its request is cancelled,
// and counted as 499, never as the server's 500.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { serverForFile, haveShared } from './harness.mjs';

const skip = haveShared() ? false : '../shared is absent: no test models';
const session = serverForFile('stories260K.gguf');

// Sends one request, half-closes, and resolves to everything the server
// wrote before it closed.
function halfClosedExchange(port, body) {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => { text += chunk; });
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
    socket.on('connect', () => {
      const json = JSON.stringify(body);
      socket.end(`POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(json)}\r\n\r\n${json}`);
    });
  });
}

const ask = {
  model: 'stories260K', messages: [{ role: 'user', content: 'Once upon a time' }],
  max_tokens: 24, temperature: 0,
};

async function requestsTotal(status) {
  const text = await (await fetch(`${session.server.origin}/metrics`)).text();
  const line = text.split('\n').find((l) =>
    l.startsWith('ingot_requests_total{route="/v1/chat/completions"') && l.includes(`status="${status}"`));
  return line === undefined ? 0 : Number(line.split(' ')[1]);
}

test('a half-closed client reads its whole stream', { skip }, async () => {
  const text = await halfClosedExchange(session.server.port, { ...ask, stream: true });
  assert.match(text, /^HTTP\/1\.1 200/);
  assert.match(text, /"finish_reason":"length"/);
  assert.match(text, /data: \[DONE\]/);
});

test('a whole reply whose client half-closed is counted as 499, not 500', { skip }, async () => {
  const text = await halfClosedExchange(session.server.port, { ...ask, max_tokens: 2000, ignore_eos: true });
  assert.doesNotMatch(text, / 500 /);
  assert.equal(await requestsTotal(500), 0);
  assert.ok(await requestsTotal(499) >= 1);
});
