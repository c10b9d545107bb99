# Runs debugpy's launcher as `python -m debugpy.launcher` would, as
# `python <this file> <launcher dir> <launcher args>`. The launcher passes a
# signal's death on only as an exit code (247 for SIGKILL, as exit(247)
# reads); this tells the signal on the console first, where pairdbg reads it.
import os
import runpy
import sys


def _tell_signals():
    import debugpy.launcher as launcher
    from debugpy.launcher import debuggee

    original = debuggee.wait_for_exit

    def wait_for_exit():
        try:
            code = debuggee.process.wait()
            if code < 0:
                launcher.channel.send_event(
                    "output",
                    {
                        "category": "console",
                        "output": "Program terminated with signal %d.\n" % -code,
                    },
                )
        except Exception:
            pass
        original()

    debuggee.wait_for_exit = wait_for_exit


launcher_dir = sys.argv[1]
sys.argv = sys.argv[1:]
# The launcher's own debugpy, as its __main__ would import it.
sys.path[0] = os.path.join(launcher_dir, "..", "..")
import debugpy  # noqa: E402,F401

del sys.path[0]
try:
    _tell_signals()
except Exception:
    pass
runpy.run_module("debugpy.launcher", run_name="__main__", alter_sys=True)
