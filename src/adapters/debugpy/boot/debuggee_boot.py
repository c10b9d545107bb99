# Runs as `python <this file> [-X opt] <debugpy dir> --connect ... <program>`:
# debugpy's launcher appends its own command line to the `python` launch
# argument, interpreter options included; pairdbg passes those options to the
# interpreter itself, before this file, so here they are only skipped.
# It does two things for the debugger's own plumbing, and nothing to the user's:
# - TCP_NODELAY on pydevd's connection to the adapter (see adapter_boot.py);
# - the debuggee dies with its launcher, so a killed pairdbg leaves nothing behind.
import importlib.abc
import importlib.machinery
import os
import runpy
import socket
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


class _NoDelayHook(importlib.abc.MetaPathFinder):
    target = "_pydevd_bundle.pydevd_comm"

    def find_spec(self, name, path, target=None):
        if name != self.target:
            return None
        sys.meta_path.remove(self)
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        if spec is None or spec.loader is None:
            return spec
        exec_module = spec.loader.exec_module

        def exec_with_patch(module):
            exec_module(module)
            start_client = module.start_client

            def start_client_nodelay(host, port):
                sock = start_client(host, port)
                try:
                    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                except OSError:
                    pass
                return sock

            module.start_client = start_client_nodelay

        spec.loader.exec_module = exec_with_patch
        return spec


_die_with_parent()
sys.meta_path.insert(0, _NoDelayHook())
# Hide this helper: the program must see the sys.path and argv it would see
# under plain debugpy.
del sys.path[0]
argv = sys.argv[1:]
while argv and argv[0] == "-X":
    argv = argv[2:]
sys.argv = argv
runpy.run_path(sys.argv[0], run_name="__main__")
