# A DAP server over stdio for the core file of a CPython interpreter that
# crashed (a segfault in an extension, an abort): the Python stack of each
# thread and its arguments and locals, read from the core by pystack. The
# values are pystack's renderings of the objects in the core's memory:
# text, with nothing to open and nothing to run.
import os
import sysconfig

from pystack.engine import (
    CoreFileAnalyzer,
    NativeReportingMode,
    StackMethod,
    get_process_threads_for_core,
)

from dap_stdio import DapServer, Refused

# The standard library's own files: not the program's code, so a crash in
# them (ctypes.string_at) is shown from the program's frame that called in.
STDLIB = tuple(
    os.path.realpath(p) + os.sep
    for p in {sysconfig.get_paths().get("stdlib"), sysconfig.get_paths().get("platstdlib")}
    if p
)


def is_stdlib(path):
    real = os.path.realpath(path)
    return real.startswith(STDLIB) and "-packages" + os.sep not in real


class Core:
    def __init__(self, core, executable):
        if not executable:
            executable = CoreFileAnalyzer(core).extract_executable()
        if not os.path.exists(executable):
            raise Refused(
                f"the core names its interpreter {executable}, which is not here: give program"
            )
        threads = get_process_threads_for_core(
            core,
            executable,
            native_mode=NativeReportingMode.OFF,
            locals=True,
            method=StackMethod.AUTO,
        )
        self.refs = {}
        self.threads = []
        self.stacks = {}
        # The thread that held the GIL was running Python when it crashed.
        threads.sort(key=lambda t: not t.holds_the_gil)
        for t in threads:
            frames = list(t.frames)[::-1]
            if not frames:
                continue
            self.threads.append({"id": t.tid, "name": t.name or f"Thread {t.tid}"})
            self.stacks[t.tid] = frames

    def ref(self, obj):
        for k, v in self.refs.items():
            if v is obj:
                return k
        self.refs[len(self.refs) + 1] = obj
        return len(self.refs)


class Server(DapServer):
    what = "a core file"

    def __init__(self):
        super().__init__()
        self.core = None

    def stopped(self):
        return {
            "reason": "entry",
            "threadId": self.core.threads[0]["id"] if self.core and self.core.threads else 1,
            "allThreadsStopped": True,
        }

    def on_initialize(self, a):
        return {"supportsConfigurationDoneRequest": True, "supportsTerminateRequest": True}

    def on_launch(self, a):
        core = a.get("core")
        if not core:
            raise Refused("launch needs `core`, the interpreter's core file")
        self.core = Core(core, a.get("program") or None)
        if not self.core.threads:
            raise Refused("pystack found no Python frames in this core")
        self.event("initialized")





    def on_threads(self, a):
        return {"threads": self.core.threads}

    def on_stackTrace(self, a):
        frames = self.core.stacks.get(a.get("threadId"), [])
        start = a.get("startFrame") or 0
        levels = a.get("levels") or len(frames)
        out = []
        for f in frames[start:start + levels]:
            path = f.code.filename
            frame = {
                "id": self.core.ref(f),
                "name": f.code.scope,
                "line": f.code.location.lineno,
                "column": max(f.code.location.column, 0) + 1,
                "source": {"name": os.path.basename(path), "path": path},
            }
            if is_stdlib(path):
                frame["presentationHint"] = "deemphasize"
            out.append(frame)
        return {"stackFrames": out, "totalFrames": len(frames)}

    def frame(self, a):
        f = self.core.refs.get(a.get("frameId"))
        if f is None:
            first = self.core.stacks.get(self.core.threads[0]["id"]) if self.core.threads else None
            f = first[0] if first else None
        if f is None:
            raise Refused("no frame with that id in the core")
        return f

    def on_scopes(self, a):
        f = self.frame(a)
        return {"scopes": [{"name": "Locals", "presentationHint": "locals",
                            "variablesReference": self.core.ref(f), "expensive": False}]}

    def on_variables(self, a):
        f = self.core.refs.get(a.get("variablesReference"))
        if f is None:
            raise Refused("no scope with that reference in the core")
        # Arguments first, in the order the function takes them.
        named = list(f.arguments.items()) + list(f.locals.items())
        start = a.get("start") or 0
        count = a.get("count") or len(named)
        return {"variables": [
            {"name": n, "value": v, "variablesReference": 0}
            for n, v in named[start:start + count]
        ]}

    def on_evaluate(self, a):
        f = self.frame(a)
        expr = a.get("expression", "").strip()
        values = {**f.arguments, **f.locals}
        if expr in values:
            return {"result": values[expr], "variablesReference": 0}
        raise Refused(
            "a core file holds no interpreter to evaluate in: only a local's name is read"
        )




if __name__ == "__main__":
    Server().run()
