"""Headless Chromium driven over the DevTools protocol, through aiohttp's websocket client (no other driver)."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import itertools
import json
import shutil
import tempfile
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp

CHROMIUM = Path("/usr/bin/chromium")
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--remote-debugging-port=0",
)


class Tab:
    def __init__(self, socket: aiohttp.ClientWebSocketResponse) -> None:
        self.socket = socket
        self._ids = itertools.count(1)

    async def send(self, method: str, **params: Any) -> dict[str, Any]:
        number = next(self._ids)
        await self.socket.send_json({"id": number, "method": method, "params": params})
        async for message in self.socket:
            data = json.loads(message.data)
            if data.get("id") == number:
                if "error" in data:
                    raise RuntimeError(f"{method}: {data['error']}")
                return data.get("result", {})
        raise ConnectionError("the browser closed the connection")

    async def evaluate(self, expression: str) -> Any:
        found = await self.send("Runtime.evaluate", expression=expression, returnByValue=True)
        return found.get("result", {}).get("value")

    async def open(self, url: str, ready: str, timeout: float = 10.0) -> None:
        """Go to `url` and wait until the expression `ready` is true in it."""
        await self.send("Page.navigate", url=url)
        await self.until(ready, timeout)

    async def until(self, expression: str, timeout: float = 1.0, every: float = 0.02) -> Any:
        async with asyncio.timeout(timeout):
            while True:
                value = await self.evaluate(expression)
                if value:
                    return value
                await asyncio.sleep(every)

    async def screenshot(self, path: Path, *, width: int, height: int, transparent: bool = False) -> None:
        size = {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False}
        await self.send("Emulation.setDeviceMetricsOverride", **size)
        if transparent:
            await self.send("Emulation.setDefaultBackgroundColorOverride", color={"r": 0, "g": 0, "b": 0, "a": 0})
        shot = await self.send("Page.captureScreenshot", format="png")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(base64.b64decode(shot["data"]))


@contextlib.asynccontextmanager
async def chromium() -> AsyncIterator[Tab]:
    """A fresh headless Chromium (its own profile) with one tab, closed after."""
    profile = tempfile.mkdtemp(prefix="turnkeeper-chromium-")
    process = await asyncio.create_subprocess_exec(
        str(CHROMIUM),
        *FLAGS,
        f"--user-data-dir={profile}",
        "about:blank",
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.DEVNULL,
    )
    try:
        port_file = Path(profile) / "DevToolsActivePort"
        async with asyncio.timeout(30):
            while not port_file.exists() or not port_file.read_text().strip():
                await asyncio.sleep(0.05)
        port = int(port_file.read_text().split()[0])
        async with aiohttp.ClientSession() as session:
            async with session.get(f"http://127.0.0.1:{port}/json/list") as listing:
                targets = await listing.json()
            page = next(t for t in targets if t["type"] == "page")
            async with session.ws_connect(page["webSocketDebuggerUrl"], max_msg_size=0) as socket:
                tab = Tab(socket)
                await tab.send("Page.enable")
                yield tab
    finally:
        if process.returncode is None:
            process.terminate()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(process.wait(), 10)
            if process.returncode is None:
                process.kill()
                await process.wait()
        shutil.rmtree(profile, ignore_errors=True)
