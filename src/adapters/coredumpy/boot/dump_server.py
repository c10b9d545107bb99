# A DAP server over stdio for one coredumpy dump: the frames, locals and
# globals a crashed Python program left, read through coredumpy's own loader.
# coredumpy's DAP server sends str() for values and "<class 'int'>" for
# types, names files by their last component and listens on a fixed port;
# this one sends what debugpy sends (reprs, type names, whole paths), so the
# dump reads as a live Python stop does.
import json
import os
import reprlib
import traceback

import coredumpy
from coredumpy.coredumpy import load_data_from_path
from coredumpy.py_object_proxy import PyObjectProxy
from dap_stdio import DapServer, Refused

NOT_READ = "<pairdbg-not-read: {}>"
# What a dumped object is when coredumpy stopped following references.
UNKNOWN = "<Unknown Object>"
RUNNER = os.path.dirname(os.path.abspath(coredumpy.__file__))

_repr = reprlib.Repr()
_repr.maxlevel = 3
_repr.maxstring = 4000
_repr.maxlong = 4000
_repr.maxother = 400
_repr.maxlist = _repr.maxtuple = _repr.maxset = _repr.maxfrozenset = 30
_repr.maxdict = 30

# Enough to read the dump with; no imports, no files, no output.
SAFE_BUILTINS = {
    n: getattr(__builtins__, n, None) if not isinstance(__builtins__, dict) else __builtins__[n]
    for n in (
        "abs all any bool dict enumerate filter float frozenset getattr hasattr "
        "int isinstance len list map max min range repr reversed round set "
        "sorted str sum tuple zip True False None"
    ).split()
}


def type_name(v):
    if isinstance(v, PyObjectProxy):
        t = v._coredumpy_type or "object"
        return t.rsplit(".", 1)[-1]
    return type(v).__name__


def value_text(v):
    if repr(v) == UNKNOWN:
        return NOT_READ.format("beyond what the dump kept")
    try:
        return _repr.repr(v)
    except Exception as e:  # a repr that fails says why, not a guess
        return NOT_READ.format(f"repr failed: {type(e).__name__}")


def children(v):
    if isinstance(v, dict):
        return [(repr(k), x) for k, x in v.items()]
    if isinstance(v, (list, tuple)):
        return [(str(i), x) for i, x in enumerate(v)]
    if isinstance(v, (set, frozenset)):
        return [(str(i), x) for i, x in enumerate(v)]
    if isinstance(v, PyObjectProxy):
        out = []
        for name in dir(v):
            try:
                out.append((name, getattr(v, name)))
            except Exception:
                continue
        return out
    return []


def has_children(v):
    if repr(v) == UNKNOWN:
        return False
    return isinstance(v, PyObjectProxy) or (
        isinstance(v, (dict, list, tuple, set, frozenset)) and len(v) > 0
    )


def load(path):
    """coredumpy's loader, and the exception's description it reads and drops."""
    kept = {}
    plain = json.load

    def keeping(f, *args, **kwargs):
        data = plain(f, *args, **kwargs)
        kept["description"] = data.get("description") or ""
        return data

    json.load = keeping
    try:
        data = load_data_from_path(path)
    finally:
        json.load = plain
    return data, kept.get("description", "")


class Dump:
    def __init__(self, path):
        data, self.description = load(path)
        self.files = {f: "".join(lines) for f, lines in data["files"].items()}
        self.refs = {}
        self.by_id = {}
        self.threads = []
        self.stacks = {}
        current = data["current_thread"]
        order = sorted(data["threads"], key=lambda t: t != current)
        for number, key in enumerate(order, 1):
            frames = self.user_frames(data["threads"][key]["frame"])
            if not frames:
                continue
            name = data["threads"][key].get("name", key)
            if key == current and name == key:
                name = "MainThread"
            self.threads.append({"id": number, "name": name})
            self.stacks[number] = frames

    def ref(self, obj):
        key = id(obj)
        if key not in self.by_id:
            self.by_id[key] = len(self.refs) + 1
            self.refs[self.by_id[key]] = obj
        return self.by_id[key]

    @staticmethod
    def user_frames(frame):
        frames = []
        while frame is not None and repr(frame) != UNKNOWN:
            frames.append(frame)
            frame = frame.f_back
        # coredumpy's `run` (and runpy, and its exec of the program) sits
        # below the program's own frames: not the user's code, and nor is
        # whatever started coredumpy (a debugger's launcher, under
        # `pairdbg run --keep-core`).
        def runner(f):
            name = str(f.f_code.co_filename)
            return name.startswith(RUNNER) or name.startswith("<frozen runpy")

        first = next((i for i, f in enumerate(frames) if runner(f)), len(frames))
        frames = frames[:first]
        while frames and str(frames[-1].f_code.co_filename) == "<string>":
            frames.pop()
        return frames

    def variable(self, name, v):
        return {
            "name": name,
            "value": value_text(v),
            "type": type_name(v),
            "variablesReference": self.ref(v) if has_children(v) else 0,
        }


class Server(DapServer):
    what = "a dump"

    def __init__(self):
        super().__init__()
        self.dump = None
        self.scopes = set()

    def stopped(self):
        raised = self.exception()
        return {
            # A dump the program took itself (coredumpy.dump()) records no exception.
            "reason": "exception" if raised else "pause",
            "description": raised[1] if raised else self.taken(),
            "threadId": self.dump.threads[0]["id"] if self.dump and self.dump.threads else 1,
            "allThreadsStopped": True,
        }

    def exception(self):
        """(type, 'Type: message', traceback) from the dump's description, or
        None where it holds no traceback."""
        text = self.dump.description if self.dump else ""
        if "Traceback (most recent call last):" not in text:
            return None
        lines = [l for l in text.splitlines() if l.strip() and not l.startswith("=====")]
        last = lines[-1] if lines else ""
        kind = last.split(":", 1)[0].strip() if ":" in last else last.strip()
        return kind, last, "\n".join(lines)

    def taken(self):
        text = (self.dump.description if self.dump else "").strip()
        return f"the program dumped its state: {text}" if text else "the program dumped its state"

    def on_initialize(self, a):
        return {
            "supportsConfigurationDoneRequest": True,
            "supportsExceptionInfoRequest": True,
            "supportsTerminateRequest": True,
            "supportsEvaluateForHovers": True,
        }

    def on_launch(self, a):
        path = a.get("dump") or a.get("program")
        if not path:
            raise Refused("launch needs `dump`, the coredumpy file to read")
        self.dump = Dump(path)
        self.event("initialized")





    def on_threads(self, a):
        return {"threads": self.dump.threads}

    def on_stackTrace(self, a):
        frames = self.dump.stacks.get(a.get("threadId"), [])
        start = a.get("startFrame") or 0
        levels = a.get("levels") or len(frames)
        out = []
        for f in frames[start:start + levels]:
            name = str(f.f_code.co_filename)
            source = {"name": os.path.basename(name), "path": name}
            if name in self.dump.files and not os.path.exists(name):
                source["sourceReference"] = self.dump.ref(name)
            out.append({
                "id": self.dump.ref(f),
                "name": str(f.f_code.co_name),
                "line": int(f.f_lineno),
                "column": 1,
                "source": source,
            })
        return {"stackFrames": out, "totalFrames": len(frames)}

    def frame(self, a):
        f = self.dump.refs.get(a.get("frameId"))
        if f is None:
            first = self.dump.stacks.get(self.dump.threads[0]["id"]) if self.dump.threads else None
            f = first[0] if first else None
        if f is None:
            raise Refused("no frame with that id in the dump")
        return f

    def on_scopes(self, a):
        f = self.frame(a)
        self.scopes.update((id(f.f_locals), id(f.f_globals)))
        scopes = [{"name": "Locals", "presentationHint": "locals",
                   "variablesReference": self.dump.ref(f.f_locals), "expensive": False}]
        if f.f_globals is not f.f_locals:
            scopes.append({"name": "Globals", "variablesReference": self.dump.ref(f.f_globals),
                           "expensive": False})
        return {"scopes": scopes}

    def on_variables(self, a):
        v = self.dump.refs.get(a.get("variablesReference"))
        if v is None:
            raise Refused("no value with that reference in the dump")
        if id(v) in self.scopes:
            # A scope's names are variables, not keys: bare, as debugpy sends them.
            items = [(k, x) for k, x in v.items() if k != "__builtins__"]
        else:
            items = children(v)
        start = a.get("start") or 0
        count = a.get("count") or len(items)
        return {"variables": [self.dump.variable(n, x) for n, x in items[start:start + count]]}

    def on_evaluate(self, a):
        f = self.frame(a)
        expr = a.get("expression", "")
        scope = dict(f.f_globals)
        scope["__builtins__"] = SAFE_BUILTINS
        try:
            v = eval(compile(expr, "<dump>", "eval"), scope, dict(f.f_locals))
        except SyntaxError as e:
            raise Refused(f"SyntaxError: {e.msg}")
        except Exception as e:
            raise Refused("".join(traceback.format_exception_only(type(e), e)).strip())
        return {
            "result": value_text(v),
            "type": type_name(v),
            "variablesReference": self.dump.ref(v) if has_children(v) else 0,
        }

    def on_source(self, a):
        name = self.dump.refs.get(a.get("sourceReference"))
        if name not in self.dump.files:
            raise Refused("the dump holds no such source")
        return {"content": self.dump.files[name], "mimeType": "text/x-python"}

    def on_exceptionInfo(self, a):
        raised = self.exception()
        if raised is None:
            raise Refused("the dump records no exception")
        kind, line, trace = raised
        message = line.split(":", 1)[1].strip() if ":" in line else ""
        return {
            "exceptionId": kind,
            "description": message,
            "breakMode": "unhandled",
            "details": {"typeName": kind, "message": message, "stackTrace": trace},
        }




if __name__ == "__main__":
    Server().run()
