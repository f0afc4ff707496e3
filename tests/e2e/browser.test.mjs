// What web pages can do with a server on loopback, from a real browser
// (Debian's chromium, driven by playwright-core): a page of another site
// can neither read a reply nor change the server's state, whether it calls
// 127.0.0.1 across origins or rebinds its own name to 127.0.0.1; a page on
// a loopback origin (a local web UI) can do both.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { startServer, sharedModel, haveShared } from './harness.mjs';

const browserPath = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
const skip = !haveShared() ? '../shared is absent: no test models'
  : !browserPath ? 'chromium is absent (scripts/install-deps installs it)' : false;

// A server of one model in a folder, loaded: its state is what a page
// would change (POST /models/unload).
async function startFleet() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ingot-browser-'));
  symlinkSync(sharedModel('stories260K.gguf'), path.join(dir, 'stories.gguf'));
  const server = await startServer(null, ['--models', dir]);
  const loaded = await fetch(`${server.origin}/models/load`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"model":"stories"}',
  });
  assert.equal(loaded.status, 200);
  return server;
}

async function modelState(server) {
  const list = await (await fetch(`${server.origin}/v1/models`)).json();
  return list.data.find((m) => m.id === 'stories').state;
}

// A page at `url`, its HTML given by the test (no site is reached), in a
// browser that resolves evil.example to 127.0.0.1 and does not hold back
// requests to the local network on its own: what is refused here, the
// server refused.
async function openPage(browser, url) {
  const page = await browser.newPage();
  await page.route(url, (route) => route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>page</title>' }));
  await page.goto(url);
  return page;
}

// What the page's fetch gives: {status, text} when it may read the
// answer, {error} when the browser keeps it from the page.
function pageFetch(page, url, init = {}) {
  return page.evaluate(async ([target, options]) => {
    try {
      const response = await fetch(target, options);
      return { status: response.status, text: await response.text() };
    } catch (error) {
      return { error: String(error) };
    }
  }, [url, init]);
}

const unload = { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"model":"stories"}' };

test('pages of other sites cannot read or change a loopback server; loopback pages can', { skip }, async () => {
  const server = await startFleet();
  const browser = await chromium.launch({
    executablePath: browserPath,
    args: ['--no-sandbox', '--host-resolver-rules=MAP evil.example 127.0.0.1',
      '--disable-features=LocalNetworkAccessChecks,PrivateNetworkAccessSendPreflights,PrivateNetworkAccessRespectPreflightResults'],
  });
  try {
    // Across origins: a page of evil.example calls 127.0.0.1.
    const foreign = await openPage(browser, 'http://evil.example/page');
    const read = await pageFetch(foreign, `${server.origin}/v1/models`);
    assert.ok(read.error, `the foreign page read ${JSON.stringify(read)}`);
    assert.ok((await pageFetch(foreign, `${server.origin}/models/unload`, unload)).error);
    // A form-like request needs no preflight: the server itself refuses it.
    await pageFetch(foreign, `${server.origin}/models/unload`,
      { method: 'POST', mode: 'no-cors', headers: { 'content-type': 'text/plain' }, body: '{"model":"stories"}' });
    assert.equal(await modelState(server), 'loaded');

    // DNS rebinding: the page's own name now leads to the server's port.
    const rebound = await openPage(browser, `http://evil.example:${server.port}/page`);
    const same = await pageFetch(rebound, '/v1/models');
    assert.equal(same.status, 403);
    assert.doesNotMatch(same.text, /stories/);
    assert.equal((await pageFetch(rebound, '/models/unload', unload)).status, 403);
    assert.equal(await modelState(server), 'loaded');

    // A loopback page (a local web UI) reads and acts.
    const local = await openPage(browser, 'http://localhost:5173/page');
    const listed = await pageFetch(local, `${server.origin}/v1/models`);
    assert.equal(listed.status, 200);
    assert.match(listed.text, /stories/);
    assert.equal((await pageFetch(local, `${server.origin}/models/unload`, unload)).status, 200);
    assert.equal(await modelState(server), 'unloaded');

    const metrics = await (await fetch(`${server.origin}/metrics`)).text();
    assert.match(metrics, /ingot_requests_total\{route="unmatched",status="403"\} [1-9]/);
  } finally {
    await browser.close();
    await server.stop();
  }
});
