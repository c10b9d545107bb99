"""A whole debugging session through the official MCP Python SDK, as an
agent built on it would run one. Prints one JSON object: the tool results,
every warning the SDK logged, and the resource updates it was sent."""

import asyncio
import io
import json
import logging
import sys

from mcp import ClientSession, StdioServerParameters, types
from mcp.client.stdio import stdio_client

log = io.StringIO()
logging.basicConfig(stream=log, level=logging.WARNING)


async def main(binary, workspace):
    updated = []

    async def on_message(message):
        if isinstance(message, types.ServerNotification) and isinstance(
            message.root, types.ResourceUpdatedNotification
        ):
            updated.append(str(message.root.params.uri))

    texts = []
    params = StdioServerParameters(command=binary, args=["mcp"], cwd=workspace)
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write, message_handler=on_message) as s:
            await s.initialize()

            async def call(tool, args):
                result = await s.call_tool(tool, args)
                texts.append(result.content[0].text)

            await call(
                "debug_launch",
                {"program": "prog.py", "breakpoints": [{"file": "prog.py", "line": 4}]},
            )
            await s.subscribe_resource("debugger://session/s1")
            await call("debug_evaluate", {"expression": "s + x"})
            await call("debug_variables", {})
            await call("debug_step", {})
            for _ in range(3):
                await call("debug_continue", {})
            await call("debug_terminate", {})
    print(json.dumps({"texts": texts, "warnings": log.getvalue(), "updated": updated}))


asyncio.run(main(sys.argv[1], sys.argv[2]))
