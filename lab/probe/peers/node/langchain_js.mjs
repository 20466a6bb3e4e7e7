// Peer: LangChain.js's `createAgent` (langchain) on `ChatAnthropic` (@langchain/anthropic), invoke.
//
// Mode: not streamed by default (`ChatAnthropic` under `invoke`); `streaming: true` when the probe
// asks for streams. ChatAnthropic reads ANTHROPIC_BASE_URL and ANTHROPIC_API_KEY from the
// environment; its target turns LangSmith tracing off. Asked (program.mjs): thinking with a budget
// (`ChatAnthropic({ thinking })`), a web search (a server tool, as a plain object) among its tools,
// a read_image tool whose result is a list of content blocks holding the image.

import {
  MAX_TOKENS, MAX_TURNS, MODEL, READ_FILE, READ_IMAGE, THINKING, THINKING_MAX_TOKENS, WEB_SEARCH,
  imageBlock, imageTool, load, readFile, run, serverTool, streamed, thinking,
} from './program.mjs';

const { createAgent, tool } = await load('langchain');
const { ChatAnthropic } = await load('@langchain/anthropic');
const { z } = await load('zod');

async function agent(prompt) {
  const asked = thinking() ? { thinking: THINKING, maxTokens: THINKING_MAX_TOKENS } : {};
  const model = new ChatAnthropic({
    model: MODEL, maxTokens: MAX_TOKENS, streaming: streamed(false), ...asked,
  });
  const readFileTool = tool(({ path }) => readFile(path), {
    name: READ_FILE.name,
    description: READ_FILE.description,
    schema: z.object({ path: z.string() }),
  });
  const readImageTool = tool(({ path }) => [imageBlock(path)], {
    name: READ_IMAGE.name,
    description: READ_IMAGE.description,
    schema: z.object({ path: z.string() }),
  });
  const tools = [readFileTool, ...(serverTool() ? [WEB_SEARCH] : []), ...(imageTool() ? [readImageTool] : [])];
  const graph = createAgent({ model, tools });
  // A graph step is one node: each turn is a model step and a tools step.
  const state = await graph.invoke(
    { messages: [{ role: 'user', content: prompt }] },
    { recursionLimit: 2 * MAX_TURNS + 1 },
  );
  return state.messages.at(-1).text;
}

await run(agent);
