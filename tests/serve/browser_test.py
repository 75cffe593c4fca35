#!/usr/bin/env python3
"""The explorer page in a real browser: Debian's chromium driven over WebDriver (chromium-driver),
Python standard library only. Generates a small english database, starts `damas serve` on a
free port, loads a position by FEN, checks the value and the move list against the JSON API,
clicks a move and checks that the page follows the API again, sets up a piece by clicking a
square, and saves a screenshot.

usage: browser_test.py DAMAS_BINARY ARTIFACT_DIR
Exit 0: passed; 1: failed; 77: chromium or chromedriver is not installed (skipped).
"""
import base64
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
FEN = "W:WK18,K19:BK1"  # two kings against one: a win with several moves


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def http(method, url, body=None, timeout=30):
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=timeout) as r:
        return json.loads(r.read().decode())


class Browser:
    def __init__(self, profile):
        self.port = free_port()
        self.driver = subprocess.Popen([CHROMEDRIVER, f"--port={self.port}"],
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.base = f"http://127.0.0.1:{self.port}"
        for _ in range(100):
            try:
                http("GET", self.base + "/status", timeout=2)
                break
            except OSError:
                time.sleep(0.1)
        args = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--window-size=1200,900", f"--user-data-dir={profile}"]
        caps = {"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {"binary": CHROMIUM, "args": args}}}}
        self.session = http("POST", self.base + "/session", caps, timeout=60)["value"]["sessionId"]
        self.url = f"{self.base}/session/{self.session}"

    def cmd(self, method, path, body=None):
        return http(method, self.url + path, body)["value"]

    def go(self, url):
        self.cmd("POST", "/url", {"url": url})

    def script(self, code, *args):
        return self.cmd("POST", "/execute/sync", {"script": code, "args": list(args)})

    def wait(self, code, what, timeout=20):
        deadline = time.time() + timeout
        while time.time() < deadline:
            value = self.script(code)
            if value:
                return value
            time.sleep(0.05)
        raise AssertionError("timed out waiting for " + what)

    def screenshot(self, path):
        with open(path, "wb") as f:
            f.write(base64.b64decode(self.cmd("GET", "/screenshot")))

    def close(self):
        try:
            http("DELETE", self.url)
        finally:
            self.driver.terminate()
            self.driver.wait()


def page_state(browser):
    return browser.script("""
        return {fen: document.getElementById('fen').value,
                value: document.getElementById('value').textContent,
                dtw: document.getElementById('dtw').textContent,
                moves: [...document.querySelectorAll('#moves tbody tr')].map(r =>
                    [r.dataset.move, r.children[1].textContent, r.children[2].textContent]),
                error: document.getElementById('error').hidden ? '' :
                       document.getElementById('error').textContent};""")


def expect_page_is(browser, api, fen, timeout=20):
    """Waits until the page shows fen as the API values it. The FEN box alone is no sign: the
    test types it before the page has fetched the position, while the old move list is shown."""
    want = api(fen)
    want_moves = [[m["move"], m["value"], "" if m["dtw"] is None else str(m["dtw"])]
                  for m in want["moves"]]
    deadline = time.time() + timeout
    while True:
        got = page_state(browser)
        shown = (got["fen"] == want["fen"] and got["error"] == "" and
                 got["value"] == want["value"] and got["moves"] == want_moves)
        if shown:
            return want
        if time.time() > deadline:
            raise AssertionError(f"the page does not show {fen} as the API does:"
                                 f" {got} against {want}")
        time.sleep(0.05)


def main():
    damas, artifacts = sys.argv[1], sys.argv[2]
    if not (os.access(CHROMIUM, os.X_OK) and os.access(CHROMEDRIVER, os.X_OK)):
        print("skipped: chromium or chromedriver is not installed (scripts/setup.sh installs them)")
        return 77
    os.makedirs(artifacts, exist_ok=True)
    work = tempfile.mkdtemp(prefix="damas-browser-")
    server = browser = None
    try:
        db = os.path.join(work, "db")
        for command in ("gen", "gen-rules"):
            subprocess.run([damas, command, "-v", "english", "-p", "3", "-d", db, "--quiet"],
                           check=True, stdout=subprocess.DEVNULL)
        server = subprocess.Popen([damas, "serve", "-d", db, "--port", "0", "--quiet"],
                                  stdout=subprocess.PIPE, text=True)
        port = int(server.stdout.readline().strip().rstrip("/").rsplit(":", 1)[1])
        root = f"http://127.0.0.1:{port}"

        def api(fen):
            return http("GET", root + "/api/v1/english?fen=" + urllib.parse.quote(fen))

        browser = Browser(os.path.join(work, "profile"))
        browser.go(root + "/")
        # Load a position by typing its FEN.
        browser.wait("return document.querySelectorAll('#moves tbody tr').length > 0", "the page")
        browser.script("document.getElementById('fen').value = arguments[0];"
                       "document.getElementById('load').click();", FEN)
        before = expect_page_is(browser, api, FEN)
        # Click the second-best move: the page must show the position after it, as the API
        # values it (the other side to move now).
        move = before["moves"][1] if len(before["moves"]) > 1 else before["moves"][0]
        browser.script("document.querySelector('#moves tbody tr[data-move=\"' + arguments[0] +"
                       " '\"]').click();", move["move"])
        after = expect_page_is(browser, api, move["fen_after"])
        assert after["fen"] != before["fen"]
        browser.screenshot(os.path.join(artifacts, "explorer.png"))
        # Set up: a white king on square 32 is added by clicking it.
        browser.script("document.getElementById('setup').click();"
                       "document.querySelector('input[name=piece][value=WK]').click();"
                       "document.querySelector('.square[data-square=\"32\"]')"
                       ".dispatchEvent(new MouseEvent('click', {bubbles: true}));")
        browser.wait("return document.getElementById('fen').value.includes('K32')",
                     "the set-up piece on 32")
        print(f"passed: {FEN} -> {move['move']} -> {after['fen']} ({after['value']}),"
              f" screenshot in {artifacts}/explorer.png")
        return 0
    except AssertionError as e:
        print("FAILED:", e)
        return 1
    finally:
        if browser:
            browser.close()
        if server:
            server.terminate()
            server.wait()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
