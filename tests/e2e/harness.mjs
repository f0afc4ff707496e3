// Starts a real `ingot serve` on a free port for a test file, and stops it.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { before, after } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';

export const sharedDir = process.env.INGOT_SHARED_DIR ?? path.resolve(import.meta.dirname, '../../../shared');
export const ingotBinary = process.env.INGOT_BINARY ?? path.resolve(import.meta.dirname, '../../build/release/ingot');

export function sharedModel(name) {
  return path.join(sharedDir, 'models', name);
}

// A model ingot-synth writes into `dir` with the shared tiny-qwen3's
// vocabulary (an encoder's shape, "*bert*", BGE's WordPiece one): a shape
// in a type, with one of ../shared's chat templates and the prediction
// block's weights (--nextn) when given.
export function synthesizedModel(dir, shape, type, { template, nextn } = {}) {
  const file = path.join(dir, `${shape}-${type}${nextn ? `-${nextn}` : ''}.gguf`);
  const vocabulary = shape.includes('bert')
    ? path.join(sharedDir, 'fixtures', 'tokenizer', 'ggml-vocab-bert-bge.gguf')
    : sharedModel('tiny-qwen3-f16.gguf');
  const args = ['--shape', shape, '--type', type, '--vocab-from', vocabulary, '--out', file];
  if (template) args.push('--chat-template', path.join(sharedDir, 'fixtures', 'templates', template));
  if (nextn) args.push('--nextn', nextn);
  execFileSync(path.join(path.dirname(ingotBinary), 'ingot-synth'), args);
  return file;
}

// A LoRA adapter ingot-synth writes into `dir` for `shape` (llama.cpp's
// format), of `rank`, seeded by `seed`.
export function synthesizedAdapter(dir, shape, seed, rank = 8) {
  const file = path.join(dir, `${shape}-lora-${seed}.gguf`);
  execFileSync(path.join(path.dirname(ingotBinary), 'ingot-synth'),
    ['--shape', shape, '--type', 'f16', '--lora-rank', String(rank), '--seed', String(seed), '--out', file]);
  return file;
}

export function haveShared() {
  return existsSync(path.join(sharedDir, 'models'));
}

// Resolves once the server prints its address; rejects if it exits first.
// One compute thread unless `extraArgs` says otherwise; no --model when
// `model` is null (`extraArgs` then names the models). `launcher` is a
// command the server runs under (`['prlimit', '--nofile=64']`), which must
// exec it so that signals reach the server.
export function startServer(model, extraArgs = [], { binary = ingotBinary, launcher = [] } = {}) {
  const threads = extraArgs.includes('--threads') ? [] : ['--threads', '1'];
  const modelArgs = model === null ? [] : ['--model', model];
  const args = ['serve', ...modelArgs, '--port', '0', ...threads, ...extraArgs];
  const [program, ...programArgs] = [...launcher, binary, ...args];
  const proc = spawn(program, programArgs, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  return new Promise((resolve, reject) => {
    proc.stderr.setEncoding('utf8');
    proc.stderr.on('data', (chunk) => {
      stderr += chunk;
      const match = stderr.match(/on http:\/\/127\.0\.0\.1:(\d+)/);
      if (match && !proc.started) {
        proc.started = true;
        const port = Number(match[1]);
        resolve({
          proc,
          port,
          baseURL: `http://127.0.0.1:${port}/v1`,
          origin: `http://127.0.0.1:${port}`,
          stderr: () => stderr,
          stop: () => stopServer(proc),
        });
      }
    });
    proc.on('exit', (code) => {
      if (!proc.started) reject(new Error(`ingot serve exited with ${code}: ${stderr}`));
    });
  });
}

// One chat request answered whole, then streamed: the whole reply and the
// text the stream's deltas add up to.
export async function wholeAndStreamed(client, ask) {
  const whole = await client.chat.completions.create(ask);
  let text = '';
  for await (const chunk of await client.chat.completions.create({ ...ask, stream: true })) {
    text += chunk.choices[0]?.delta?.content ?? '';
  }
  return { whole, text };
}

export function stopServer(proc, signal = 'SIGTERM') {
  return new Promise((resolve) => {
    if (proc.exitCode !== null) return resolve(proc.exitCode);
    proc.once('exit', (code) => resolve(code));
    proc.kill(signal);
  });
}

// One server for a whole test file, on a model from ../shared: started
// before the file's tests and required to exit 0 after them. `session.server`
// and `session.client` (the openai SDK, no retries) are set once it is up.
export function serverForFile(modelFile, extraArgs = [], clientOptions = {}) {
  const session = { server: null, client: null };
  before(async () => {
    if (!haveShared()) return;
    session.server = await startServer(sharedModel(modelFile), extraArgs);
    session.client = new OpenAI({ baseURL: session.server.baseURL, apiKey: 'unused', maxRetries: 0, ...clientOptions });
  });
  after(async () => {
    if (session.server) assert.equal(await session.server.stop(), 0);
  });
  return session;
}
