// Answers sent before the body was read (413, 401) reach the official SDK
// as the status, not as a connection error, however large the upload.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { startServer, sharedModel, haveShared } from './harness.mjs';

const skip = haveShared() ? false : '../shared is absent: no test models';
const model = 'stories260K';

function messagesOf(bytes) {
  return [{ role: 'user', content: 'x'.repeat(bytes) }];
}

// The SDK's default client, retries included: a refusal must not be retried.
function countingClient(server, apiKey) {
  const sent = { requests: 0 };
  const client = new OpenAI({
    baseURL: server.baseURL,
    apiKey,
    fetch: (url, init) => {
      sent.requests += 1;
      return fetch(url, init);
    },
  });
  return { client, sent };
}

for (const mebibytes of [9, 64]) {
  test(`a ${mebibytes} MiB chat body is a 413 APIError, sent once`, { skip, timeout: 120_000 }, async () => {
    const server = await startServer(sharedModel('stories260K.gguf'));
    try {
      const { client, sent } = countingClient(server, 'unused');
      await assert.rejects(
        client.chat.completions.create({ model, messages: messagesOf(mebibytes << 20) }),
        (e) => {
          assert.ok(e instanceof OpenAI.APIError, `${e.constructor.name}: ${e.message}`);
          assert.ok(!(e instanceof OpenAI.APIConnectionError), e.message);
          assert.equal(e.status, 413);
          assert.equal(e.code, 'request_too_large');
          return true;
        },
      );
      assert.equal(sent.requests, 1);
      // The server is still serving.
      const fine = await client.chat.completions.create({ model, messages: messagesOf(10), max_tokens: 2 });
      assert.equal(fine.choices[0].finish_reason, 'length');
    } finally {
      await server.stop();
    }
  });
}

test('a wrong API key on a large body is a 401 AuthenticationError', { skip, timeout: 120_000 }, async () => {
  const server = await startServer(sharedModel('stories260K.gguf'), ['--api-key', 'sesame']);
  try {
    const { client, sent } = countingClient(server, 'wrong');
    await assert.rejects(
      client.chat.completions.create({ model, messages: messagesOf(6 << 20) }),
      (e) => e instanceof OpenAI.AuthenticationError && e.status === 401,
    );
    assert.equal(sent.requests, 1);
  } finally {
    await server.stop();
  }
});
