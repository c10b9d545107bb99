// A session through the official MCP TypeScript SDK: a client that does not
// ask for pairdbg's own notifications, one that declares the capability and
// one that subscribes to debugger://notifications, each launching and
// continuing a program. Prints one JSON object: per client, the methods of
// the notifications it was sent and the errors the SDK reported.
const path = require("path");
const [sdk, binary, workspace] = process.argv.slice(2);
const lib = (p) => require(path.join(sdk, "node_modules/@modelcontextprotocol/sdk/dist/cjs", p));
const { Client } = lib("client/index.js");
const { StdioClientTransport } = lib("client/stdio.js");

async function session(capabilities, subscribe) {
  const seen = [];
  const errors = [];
  const client = new Client({ name: "sdk-test", version: "1.0.0" }, { capabilities });
  client.fallbackNotificationHandler = async (n) => {
    seen.push(n.method);
  };
  client.onerror = (e) => errors.push(String(e));
  const transport = new StdioClientTransport({ command: binary, args: ["mcp"], cwd: workspace });
  await client.connect(transport);
  if (subscribe) await client.subscribeResource({ uri: "debugger://notifications" });
  const call = (name, args) => client.callTool({ name, arguments: args });
  const launched = await call("debug_launch", {
    program: "prog.py",
    breakpoints: [{ file: "prog.py", line: 4 }],
  });
  await call("debug_continue", {});
  await call("debug_terminate", {});
  await client.close();
  return { seen, errors, launched: launched.content[0].text };
}

(async () => {
  const plain = await session({});
  const asking = await session({ experimental: { "debugger/notifications": {} } });
  const subscribed = await session({}, true);
  console.log(JSON.stringify({ plain, asking, subscribed }));
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
