# First on PYTHONPATH in a session whose subprocesses are debugged: debugpy
# starts each child Python without pairdbg's boot file, so this gives it the
# same TCP_NODELAY on pydevd's connection to the adapter (see
# debuggee_boot.py), then runs the sitecustomize it hides, if there is one.
# The debuggee's own death with its parent is not copied: a child started by
# a thread would die with that thread.
import importlib.util
import os
import sys

_here = os.path.dirname(os.path.abspath(__file__))


def _nodelay():
    import importlib.abc
    import importlib.machinery
    import socket

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

    sys.meta_path.insert(0, _NoDelayHook())


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
    _nodelay()
except Exception:
    pass
_chain()
