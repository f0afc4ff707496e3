// Starts a real `ingot serve` on a free port for a test file, and stops it.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

export const sharedDir = process.env.INGOT_SHARED_DIR ?? path.resolve(import.meta.dirname, '../../../shared');
export const ingotBinary = process.env.INGOT_BINARY ?? path.resolve(import.meta.dirname, '../../build/release/ingot');

export function sharedModel(name) {
  return path.join(sharedDir, 'models', name);
}

export function haveShared() {
  return existsSync(path.join(sharedDir, 'models'));
}

// Resolves once the server prints its address; rejects if it exits first.
export function startServer(model, extraArgs = []) {
  const args = ['serve', '--model', model, '--port', '0', '--threads', '1', ...extraArgs];
  const proc = spawn(ingotBinary, args, { stdio: ['ignore', 'ignore', 'pipe'] });
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

export function stopServer(proc, signal = 'SIGTERM') {
  return new Promise((resolve) => {
    if (proc.exitCode !== null) return resolve(proc.exitCode);
    proc.once('exit', (code) => resolve(code));
    proc.kill(signal);
  });
}
