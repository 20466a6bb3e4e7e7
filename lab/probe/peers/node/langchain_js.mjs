// Peer: LangChain.js's `createAgent` (langchain) on `ChatAnthropic` (@langchain/anthropic), invoke.
//
// Mode: not streamed by default (`ChatAnthropic` under `invoke`); `streaming: true` when the probe
// asks for streams. ChatAnthropic reads ANTHROPIC_BASE_URL and ANTHROPIC_API_KEY from the
// environment; its target turns LangSmith tracing off.

import { MAX_TOKENS, MAX_TURNS, MODEL, READ_FILE, load, readFile, run, streamed } from './program.mjs';

const { createAgent, tool } = await load('langchain');
const { ChatAnthropic } = await load('@langchain/anthropic');
const { z } = await load('zod');

async function agent(prompt) {
  const model = new ChatAnthropic({ model: MODEL, maxTokens: MAX_TOKENS, streaming: streamed(false) });
  const readFileTool = tool(({ path }) => readFile(path), {
    name: READ_FILE.name,
    description: READ_FILE.description,
    schema: z.object({ path: z.string() }),
  });
  const graph = createAgent({ model, tools: [readFileTool] });
  // A graph step is one node: each turn is a model step and a tools step.
  const state = await graph.invoke(
    { messages: [{ role: 'user', content: prompt }] },
    { recursionLimit: 2 * MAX_TURNS + 1 },
  );
  return state.messages.at(-1).text;
}

await run(agent);
