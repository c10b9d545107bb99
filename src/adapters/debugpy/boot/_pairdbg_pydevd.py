# pairdbg's two changes to pydevd, for every Python the session debugs (the
# debuggee through debuggee_boot.py, its child processes through
# sitecustomize.py): each patches one pydevd module as it is first imported,
# so nothing is imported early and the program's own imports are untouched.
import importlib.abc
import importlib.machinery
import sys

import _pairdbg_nodelay
import _pairdbg_repr_deadline

_PATCHES = {p.TARGET: p.patch for p in (_pairdbg_nodelay, _pairdbg_repr_deadline)}


class _PatchHook(importlib.abc.MetaPathFinder):
    def __init__(self):
        self.pending = dict(_PATCHES)

    def find_spec(self, name, path, target=None):
        patch = self.pending.pop(name, None)
        if patch is None:
            return None
        if not self.pending:
            sys.meta_path.remove(self)
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        if spec is None or spec.loader is None:
            return spec
        exec_module = spec.loader.exec_module

        def exec_with_patch(module):
            exec_module(module)
            patch(module)

        spec.loader.exec_module = exec_with_patch
        return spec


def install():
    # Once per process: a debuggee under both boot files is patched once.
    if not any(isinstance(h, _PatchHook) for h in sys.meta_path):
        sys.meta_path.insert(0, _PatchHook())
