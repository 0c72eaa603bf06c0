"""Load a page in headless Chromium and report what a reader's browser would have shown.

Chromium is driven through the DevTools protocol over ``--remote-debugging-pipe``
(JSON messages ending in NUL, read by Chromium on fd 3 and written on fd 4), so
the test needs nothing but Debian's ``chromium`` package and the standard
library, and the page itself needs no script: the checks run in the browser,
against the page as it loaded.
"""
from __future__ import annotations

import base64
import dataclasses
import json
import os
import select
import shutil
import subprocess
import time

import pytest

# Debian's chromium as root on a machine without network or display (docs/certify.md, "Checking the page").
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync")
VIEWPORT = (1200, 1600)

#: Run in the page once it has loaded: every image's state, and the figures the page holds.
PROBE = """JSON.stringify({
  images: [...document.images].map(i => ({alt: i.alt, complete: i.complete, width: i.naturalWidth,
                                          height: i.naturalHeight})),
  figures: document.querySelectorAll('figure[data-plot]').length,
  svgs: document.querySelectorAll('svg').length,
  text: document.body ? document.body.innerText : ''})"""


def chromium() -> str:
    """The browser's path; skips the test without one, except in CI (CI=true), where it fails."""
    browser = next((shutil.which(name) for name in ("chromium", "chromium-browser") if shutil.which(name)), None)
    if browser is None:
        if os.environ.get("CI") == "true":
            pytest.fail("CI=true but no chromium on PATH: .ci/run installs Debian's chromium")
        pytest.skip("no chromium on PATH (Debian: apt-get install chromium); CI runs this test")
    return browser


@dataclasses.dataclass
class Loaded:
    """What the browser made of a page."""

    images: list[dict]  # per <img>: alt, complete, natural width and height
    figures: int  # <figure data-plot> elements
    svgs: int  # <svg> elements
    text: str  # the page's visible text
    errors: list[str]  # console errors, uncaught exceptions, failed loads, in the order they came
    screenshot: bytes  # PNG of the first VIEWPORT of the page


class _Pipe:
    """One DevTools session over the pipe pair, with a deadline on every read."""

    def __init__(self, write_fd: int, read_fd: int, deadline: float):
        self.write_fd, self.read_fd, self.deadline = write_fd, read_fd, deadline
        self.buffer, self.events, self.next_id = b"", [], 0

    def _message(self) -> dict:
        while b"\0" not in self.buffer:
            left = self.deadline - time.monotonic()
            if left <= 0 or not select.select([self.read_fd], [], [], left)[0]:
                raise TimeoutError("chromium did not answer in time")
            chunk = os.read(self.read_fd, 1 << 16)
            if not chunk:
                raise EOFError("chromium closed its pipe")
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def call(self, method: str, params: dict | None = None, session: str | None = None) -> dict:
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self.write_fd, json.dumps(message).encode() + b"\0")
        while True:
            reply = self._message()
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply["result"]
            self.events.append(reply)



def _errors(events: list[dict]) -> list[str]:
    out = []
    for event in events:
        method, params = event.get("method"), event.get("params", {})
        if method == "Runtime.consoleAPICalled" and params["type"] in ("error", "assert"):
            out.append("console: " + " ".join(str(a.get("value", a.get("description"))) for a in params["args"]))
        elif method == "Runtime.exceptionThrown":
            out.append("exception: " + params["exceptionDetails"].get("text", ""))
        elif method == "Log.entryAdded" and params["entry"]["level"] == "error":
            out.append(f'log: {params["entry"]["text"]} {params["entry"].get("url", "")}'.rstrip())
    return out


def _wait_until_loaded(pipe: _Pipe, session: str, url: str) -> None:
    """Until the page at ``url`` (not the blank page before it) has fired its load event, which
    comes after every image of the page has loaded or failed."""
    while True:
        state = pipe.call("Runtime.evaluate", {"expression": "location.href + ' ' + document.readyState",
                                               "returnByValue": True}, session)["result"]["value"]
        if state == f"{url} complete":
            return
        if time.monotonic() > pipe.deadline:
            raise TimeoutError(f"{url} did not finish loading (last: {state})")
        time.sleep(0.05)


def load(url: str, profile_dir, timeout: float = 120.0) -> Loaded:
    """Open ``url`` in a fresh headless Chromium (profile in ``profile_dir``) and report on it."""
    browser = chromium()
    to_browser_r, to_browser_w = os.pipe()
    from_browser_r, from_browser_w = os.pipe()

    def fds():  # in the child: Chromium reads commands on fd 3 and writes replies on fd 4
        os.dup2(to_browser_r, 3)
        os.dup2(from_browser_w, 4)

    process = subprocess.Popen([browser, *FLAGS, f"--user-data-dir={profile_dir}", "--remote-debugging-pipe",
                                "about:blank"], pass_fds=(3, 4), preexec_fn=fds, stdin=subprocess.DEVNULL,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(to_browser_r)
    os.close(from_browser_w)
    pipe = _Pipe(to_browser_w, from_browser_r, time.monotonic() + timeout)
    try:
        target = pipe.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = pipe.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page", "Runtime", "Log"):
            pipe.call(f"{domain}.enable", session=session)
        width, height = VIEWPORT
        pipe.call("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 1,
                                                         "mobile": False}, session)
        pipe.events.clear()
        pipe.call("Page.navigate", {"url": url}, session)
        _wait_until_loaded(pipe, session, url)
        probe = json.loads(pipe.call("Runtime.evaluate", {"expression": PROBE, "returnByValue": True},
                                     session)["result"]["value"])
        shot = base64.b64decode(pipe.call("Page.captureScreenshot", {"format": "png"}, session)["data"])
        errors = _errors(pipe.events)
        pipe.call("Browser.close")
        process.wait(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        os.close(to_browser_w)
        os.close(from_browser_r)
    return Loaded(probe["images"], probe["figures"], probe["svgs"], probe["text"], errors, shot)
