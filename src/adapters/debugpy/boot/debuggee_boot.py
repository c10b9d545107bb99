# Runs as `python <this file> [-X opt] <debugpy dir> --connect ... <program>`:
# debugpy's launcher appends its own command line to the `python` launch
# argument, interpreter options included; pairdbg passes those options to the
# interpreter itself, before this file, so here they are only skipped.
# It does three things for the debugger's own plumbing, and nothing to the user's:
# - TCP_NODELAY on pydevd's connection to the adapter (see adapter_boot.py);
# - a deadline on each value's repr (_pairdbg_repr_deadline.py);
# - the debuggee dies with its launcher, so a killed pairdbg leaves nothing behind.
import os
import runpy
import sys


def _die_with_parent():
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, 9)  # PR_SET_PDEATHSIG, SIGKILL
        if os.getppid() == 1:
            os._exit(137)
    except Exception:
        pass


_die_with_parent()
# The hook lives beside sitecustomize.py, which child processes load.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "site"))
import _pairdbg_pydevd  # noqa: E402

del sys.path[0]
_pairdbg_pydevd.install()
# Hide this helper: the program must see the sys.path and argv it would see
# under plain debugpy.
del sys.path[0]
argv = sys.argv[1:]
while argv and argv[0] == "-X":
    argv = argv[2:]
sys.argv = argv
runpy.run_path(sys.argv[0], run_name="__main__")
