# DAP over stdio for pairdbg's post-mortem servers (a coredumpy dump, a
# CPython core): the framing, the request loop, and the requests that mean
# the same for anything that runs nothing. Each server subclasses DapServer
# with its own reads.
import json
import sys
import traceback


class Refused(Exception):
    pass


class DapServer:
    # What is read, for the messages: "a dump", "a core file".
    what = "this file"

    def __init__(self):
        self.seq = 1
        self.out = sys.stdout.buffer
        self.inp = sys.stdin.buffer
        # What the libraries print (a dump of another version) stays out of DAP.
        sys.stdout = sys.stderr

    def stopped(self):
        """The body of the one `stopped` event, sent after configurationDone."""
        raise NotImplementedError

    def send(self, msg):
        msg["seq"] = self.seq
        self.seq += 1
        body = json.dumps(msg).encode("utf-8")
        self.out.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.out.flush()

    def event(self, name, body=None):
        self.send({"type": "event", "event": name, "body": body or {}})

    def read(self):
        length = None
        while True:
            line = self.inp.readline()
            if not line:
                return None
            line = line.strip()
            if not line:
                break
            k, _, v = line.partition(b":")
            if k.strip().lower() == b"content-length":
                length = int(v.strip())
        if length is None:
            return None
        return json.loads(self.inp.read(length))

    def fail(self, req, command, message):
        self.send({"type": "response", "request_seq": req["seq"], "success": False,
                   "command": command, "message": message})

    def run(self):
        while True:
            req = self.read()
            if req is None:
                return
            if req.get("type") != "request":
                continue
            command = req.get("command", "")
            handler = getattr(self, "on_" + command, None)
            try:
                if handler is None:
                    raise Refused(f"{self.what} runs nothing: `{command}` has nothing to act on")
                body = handler(req.get("arguments") or {})
                self.send({"type": "response", "request_seq": req["seq"], "success": True,
                           "command": command, "body": body or {}})
            except Refused as e:
                self.fail(req, command, str(e))
            except Exception as e:
                self.fail(req, command, "".join(traceback.format_exception_only(type(e), e)).strip())
            if command == "configurationDone":
                self.event("stopped", self.stopped())
            if command in ("disconnect", "terminate"):
                self.event("terminated")
                return

    def on_setBreakpoints(self, a):
        return {"breakpoints": [
            {"verified": False, "line": b.get("line"),
             "message": f"{self.what} runs nothing: no breakpoint is hit"}
            for b in a.get("breakpoints", [])
        ]}

    def on_setFunctionBreakpoints(self, a):
        return {"breakpoints": [{"verified": False} for _ in a.get("breakpoints", [])]}

    def on_setExceptionBreakpoints(self, a):
        return {}

    def on_configurationDone(self, a):
        return {}

    def on_disconnect(self, a):
        return {}

    def on_terminate(self, a):
        return {}
