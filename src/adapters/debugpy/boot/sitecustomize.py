# First on PYTHONPATH in a session whose subprocesses are debugged: debugpy
# starts each child Python without pairdbg's boot file, so this gives it the
# same changes to pydevd (_pairdbg_pydevd.py), then runs the sitecustomize
# it hides, if there is one.
# The debuggee's own death with its parent is not copied: a child started by
# a thread would die with that thread.
import importlib.util
import os
import sys

_here = os.path.dirname(os.path.abspath(__file__))


def _chain():
    # The program sees the sys.path it would see without this file.
    sys.path[:] = [d for d in sys.path if os.path.abspath(d or ".") != _here]
    for d in sys.path:
        path = os.path.join(d or ".", "sitecustomize.py")
        if os.path.isfile(path):
            spec = importlib.util.spec_from_file_location("sitecustomize", path)
            module = importlib.util.module_from_spec(spec)
            sys.modules["sitecustomize"] = module
            spec.loader.exec_module(module)
            return


try:
    import _pairdbg_pydevd

    _pairdbg_pydevd.install()
except Exception:
    pass
_chain()
