#!/usr/bin/env python3
"""Makes assets/screenshot.png from a real run: the TUI on the demo in tmux,
an agent joined through `pairdbg mcp` that steps and leaves a note, then the
terminal's cells (with their colours) drawn into a PNG.

Needs tmux, debugpy and Pillow (python3 -m pip install pillow).
Run from the repository root: scripts/screenshot.py
"""
import json
import os
import re
import subprocess
import sys
import time

from PIL import Image, ImageDraw, ImageFont

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(ROOT, "target", "release", "pairdbg")
SOCKET = f"pairdbg-shot-{os.getpid()}"
COLS, ROWS = 132, 40
FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"
FONT_BOLD = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono-Bold.ttf"


def tmux(*args):
    return subprocess.run(["tmux", "-L", SOCKET, *args], capture_output=True, text=True, check=True).stdout


def wait_for(text, timeout=30):
    end = time.time() + timeout
    while time.time() < end:
        if text in tmux("capture-pane", "-p"):
            return
        time.sleep(0.1)
    raise SystemExit(f"timed out waiting for {text!r}")


class Agent:
    def __init__(self):
        self.p = subprocess.Popen([BIN, "mcp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=ROOT)
        self.id = 0
        self.request("initialize", {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "screenshot", "version": "0"}})
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def send(self, m):
        self.p.stdin.write((json.dumps(m) + "\n").encode())
        self.p.stdin.flush()

    def request(self, method, params):
        self.id += 1
        self.send({"jsonrpc": "2.0", "id": self.id, "method": method, "params": params})
        return json.loads(self.p.stdout.readline())

    def call(self, tool, args):
        return self.request("tools/call", {"name": tool, "arguments": args})

    def close(self):
        self.p.stdin.close()
        self.p.wait()


NAMED = [(0, 0, 0), (205, 49, 49), (13, 188, 121), (229, 229, 16), (36, 114, 200), (188, 63, 188), (17, 168, 205), (229, 229, 229)]
BRIGHT = [(102, 102, 102), (241, 76, 76), (35, 209, 139), (245, 245, 67), (59, 142, 234), (214, 112, 214), (41, 184, 219), (255, 255, 255)]
FG, BG = (208, 208, 208), (24, 26, 31)


def xterm256(n):
    if n < 8:
        return NAMED[n]
    if n < 16:
        return BRIGHT[n - 8]
    if n < 232:
        n -= 16
        levels = [0, 95, 135, 175, 215, 255]
        return (levels[n // 36], levels[(n // 6) % 6], levels[n % 6])
    v = 8 + (n - 232) * 10
    return (v, v, v)


def cells(ansi):
    """Yields rows of (char, fg, bg, bold) from tmux's capture-pane -e."""
    rows = []
    for line in ansi.split("\n")[:ROWS]:
        fg, bg, bold, rev = FG, BG, False, False
        row = []
        for tok in re.split(r"(\x1b\[[0-9;]*m)", line):
            if tok.startswith("\x1b["):
                codes = [int(c) if c else 0 for c in tok[2:-1].split(";")]
                i = 0
                while i < len(codes):
                    c = codes[i]
                    if c == 0:
                        fg, bg, bold, rev = FG, BG, False, False
                    elif c == 1:
                        bold = True
                    elif c == 22:
                        bold = False
                    elif c == 7:
                        rev = True
                    elif c == 27:
                        rev = False
                    elif 30 <= c <= 37:
                        fg = NAMED[c - 30]
                    elif 90 <= c <= 97:
                        fg = BRIGHT[c - 90]
                    elif 40 <= c <= 47:
                        bg = NAMED[c - 40]
                    elif 100 <= c <= 107:
                        bg = BRIGHT[c - 100]
                    elif c == 39:
                        fg = FG
                    elif c == 49:
                        bg = BG
                    elif c in (38, 48) and i + 1 < len(codes):
                        if codes[i + 1] == 2 and i + 4 < len(codes):
                            rgb = tuple(codes[i + 2 : i + 5])
                            i += 4
                        elif codes[i + 1] == 5 and i + 2 < len(codes):
                            rgb = xterm256(codes[i + 2])
                            i += 2
                        else:
                            rgb = FG if c == 38 else BG
                        if c == 38:
                            fg = rgb
                        else:
                            bg = rgb
                    i += 1
                continue
            for ch in tok:
                f, b = (bg, fg) if rev else (fg, bg)
                row.append((ch, f, b, bold))
        rows.append(row)
    return rows


def render(rows, out):
    font, bold = ImageFont.truetype(FONT, 15), ImageFont.truetype(FONT_BOLD, 15)
    cw, ch = font.getbbox("M")[2], 19
    img = Image.new("RGB", (COLS * cw + 20, ROWS * ch + 20), BG)
    d = ImageDraw.Draw(img)
    for y, row in enumerate(rows):
        for x, (c, fg, bg, b) in enumerate(row[:COLS]):
            px, py = 10 + x * cw, 10 + y * ch
            d.rectangle([px, py, px + cw, py + ch], fill=bg)
            if c != " ":
                d.text((px, py + 1), c, fill=fg, font=bold if b else font)
    img.save(out, optimize=True)


def main():
    subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
    tmux("new-session", "-d", "-x", str(COLS), "-y", str(ROWS), "-c", ROOT, "--", f"{BIN} --break assets/demo/order.py:41 -- assets/demo/order.py")
    try:
        wait_for("stopped: breakpoint")
        agent = Agent()
        for _ in range(4):
            agent.call("debug_step", {})
        agent.call("debug_watch", {"add": ["subtotal > 100"]})
        agent.call("debug_note", {"text": "subtotal is right; next I check the discount's sign"})
        wait_for("next I check")
        tmux("send-keys", "e")
        tmux("send-keys", "-l", "item.price * item.quantity")
        tmux("send-keys", "Enter")
        wait_for("(float)")
        time.sleep(0.3)  # let the last frame settle before the capture
        rows = cells(tmux("capture-pane", "-e", "-p"))
        render(rows, os.path.join(ROOT, "assets", "screenshot.png"))
        agent.close()
        tmux("send-keys", "q")
    finally:
        time.sleep(0.5)
        subprocess.run(["tmux", "-L", SOCKET, "kill-server"], capture_output=True)


if __name__ == "__main__":
    sys.exit(main())
