// What every Node peer program shares: its one tool, the model it names, its limits, its ending.
//
// A Node peer is the minimal program a harness author writes with one npm framework. The probe
// starts it as `node PEER.mjs PROMPT` in a scratch folder, with ANTHROPIC_BASE_URL and
// ANTHROPIC_API_KEY (OPENAI_BASE_URL and OPENAI_API_KEY on the Chat Completions wire) pointing
// at the lab's fake API, and LAB_PEER_NODE_MODULES naming the folder where `lab peers install
// NAME` put the framework (pinned versions, outside any project).

import { readFileSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { extname, join, relative, isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

// Any name works against the fake API; a real one keeps libraries with model tables quiet.
export const MODEL = 'claude-sonnet-4-5';
export const OPENAI_MODEL = 'gpt-4.1-mini'; // the Chat Completions peers'
export const MAX_TOKENS = 1024;
// Model calls one run may make: the probe's longest case (P12) is a 20-turn run.
export const MAX_TURNS = 25;

// Extended thinking with the API's least budget (max_tokens must be above it), and the server
// tool a peer declares: what the probe asks for with LAB_PROBE_THINKING=1, LAB_PROBE_SERVER_TOOL=1.
export const THINKING = { type: 'enabled', budget_tokens: 1024 };
export const THINKING_MAX_TOKENS = 2048;
export const WEB_SEARCH = { type: 'web_search_20250305', name: 'web_search', max_uses: 1 };
export const thinking = () => process.env.LAB_PROBE_THINKING === '1';
export const serverTool = () => process.env.LAB_PROBE_SERVER_TOOL === '1';

export const imageTool = () => process.env.LAB_PROBE_IMAGE_TOOL === '1';

export const READ_IMAGE = {
  name: 'read_image',
  description: 'Read an image file in the working folder and return it as an image.',
};

export const READ_FILE = {
  name: 'read_file',
  description: 'Read a text file in the working folder and return its text.',
  schema: {
    type: 'object',
    properties: { path: { type: 'string', description: "the file's path in the working folder" } },
    required: ['path'],
  },
};

// Import an installed package from the lab's peer folder. (ESM ignores NODE_PATH, so the folder
// is resolved by hand: a require() rooted there finds the package's entry file.)
export async function load(name) {
  const root = process.env.LAB_PEER_NODE_MODULES;
  if (!root) throw new Error('LAB_PEER_NODE_MODULES is not set: run this peer through lab probe');
  const entry = createRequire(join(root, 'index.js')).resolve(name);
  return import(pathToFileURL(entry).href);
}

// The answer mode to use: the probe's LAB_PROBE_STREAM (1 or 0) if set, else the framework's default.
export function streamed(fallback) {
  const asked = process.env.LAB_PROBE_STREAM;
  return asked === undefined ? fallback : asked === '1';
}

// The one tool: a text file inside the working folder, nothing outside it.
export function readFile(path) {
  const folder = realpathSync(process.cwd());
  const target = resolve(folder, path);
  const inside = relative(folder, target);
  if (inside.startsWith('..') || isAbsolute(inside)) {
    throw new Error(`${path}: outside the working folder`);
  }
  return readFileSync(target, 'utf8');
}

// An image file inside the working folder: its base64 data and media type (by its name).
const MEDIA_TYPES = { '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.gif': 'image/gif', '.webp': 'image/webp' };
export function readImage(path) {
  const folder = realpathSync(process.cwd());
  const target = resolve(folder, path);
  const inside = relative(folder, target);
  if (inside.startsWith('..') || isAbsolute(inside)) {
    throw new Error(`${path}: outside the working folder`);
  }
  const mediaType = MEDIA_TYPES[extname(target).toLowerCase()] ?? 'application/octet-stream';
  return { data: readFileSync(target).toString('base64'), mediaType };
}

// The same image as the Messages API's image block.
export function imageBlock(path) {
  const { data, mediaType } = readImage(path);
  return { type: 'image', source: { type: 'base64', media_type: mediaType, data } };
}

// Run `agent` on the prompt (the last argument) and print its final text. Whatever the framework
// throws ends the program with one line on stderr (the error's own message, not Node's banner)
// and exit status 1.
export async function run(agent) {
  try {
    console.log(await agent(process.argv.at(-1)));
  } catch (error) {
    const first = String(error?.message ?? error).trim().split('\n')[0];
    console.error(`${error?.name ?? 'Error'}: ${first}`);
    process.exitCode = 1;
  }
}
