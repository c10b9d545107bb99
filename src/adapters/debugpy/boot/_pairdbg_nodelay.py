# TCP_NODELAY on pydevd's connection to the adapter (see adapter_boot.py),
# for every Python the session debugs: the debuggee through
# debuggee_boot.py, its child processes through sitecustomize.py.
import importlib.abc
import importlib.machinery
import socket
import sys


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


def install():
    # Once per process: a debuggee under both boot files is patched once.
    if not any(isinstance(h, _NoDelayHook) for h in sys.meta_path):
        sys.meta_path.insert(0, _NoDelayHook())
