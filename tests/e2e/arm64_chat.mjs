// The aarch64 `ingot serve`, run under qemu-user-static, answers a chat
// request from the official SDK on stories260K with the reply the native
// build gives (greedy, so the same logits give the same tokens). Run by
// `make test-arm64` (scripts/test-arm64), not by the x86 e2e suite:
// INGOT_ARM64_BINARY names the wrapper that starts the aarch64 binary.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { haveShared, sharedModel, startServer, wholeAndStreamed } from './harness.mjs';

const arm64Binary = process.env.INGOT_ARM64_BINARY;

async function reply(binary) {
  const server = await startServer(sharedModel('stories260K.gguf'), ['-c', '256'], { binary });
  try {
    const client = new OpenAI({ baseURL: server.baseURL, apiKey: 'unused', maxRetries: 0, timeout: 600_000 });
    return await wholeAndStreamed(client, {
      model: 'stories260K',
      messages: [{ role: 'user', content: 'Once upon a time' }],
      max_tokens: 24,
      temperature: 0,
    });
  } finally {
    assert.equal(await server.stop(), 0);
  }
}

test('the aarch64 build answers a chat request as the native build does', { skip: !haveShared() || !arm64Binary }, async () => {
  const arm64 = await reply(arm64Binary);
  const native = await reply(undefined);
  const text = arm64.whole.choices[0].message.content;
  assert.ok(text.length > 0, 'the reply has text');
  assert.equal(arm64.whole.usage.completion_tokens, native.whole.usage.completion_tokens);
  assert.equal(text, native.whole.choices[0].message.content);
  assert.equal(arm64.text, text, 'the stream adds up to the whole reply');
});
