# A deadline on each value's repr. pydevd computes every local's repr on the
# stopped thread, all in one answer: one slow __repr__ would hold the whole
# scope, and every request queued behind it (the next step too), for as long
# as it runs. A repr past its deadline is interrupted by SIGALRM, whose
# handler raises in the repr's own thread (so thread-bound state reads as it
# would, unlike a repr moved to another thread), and the value is sent as
# MARKER, which pairdbg shows as not read. Only on the main thread, where
# Python runs signal handlers; elsewhere a repr runs as pydevd runs it.
import signal
import threading
import time

TARGET = "_pydevd_bundle.pydevd_xml"
MARKER = "<pairdbg-not-read: the repr took longer than %d ms>"
FIRST_MS = 1000
# Once one value was slow, the others of the same read get less: ten slow
# locals must not add up to the debugger's own deadline for the read.
AFTER_SLOW_MS = 100
SLOW_WINDOW_S = 2.0
# A repr that catches the first interruption (a bare `except:`, as pydevd's
# own fallback to repr() has) is interrupted again this often.
REPEAT_S = 0.05

# Values whose repr runs none of the program's code.
_ATOMS = (int, float, complex, bool, type(None), str, bytes)
# Contexts where someone asked for this one value and waits for it: a
# longer deadline, still short of the debugger's own for the request.
_ASKED = ("repl", "clipboard")
ASKED_MS = 10000


class _Late(BaseException):
    pass


_last_slow = [-1e9]


def patch(module):
    original = module.get_variable_details

    def get_variable_details(val, evaluate_full_value=True, to_string=None, context=None):
        def run():
            return original(val, evaluate_full_value, to_string, context)

        if (
            type(val) in _ATOMS
            or not evaluate_full_value
            or threading.current_thread() is not threading.main_thread()
        ):
            return run()
        slow_lately = time.monotonic() - _last_slow[0] < SLOW_WINDOW_S
        if context in _ASKED:
            ms = ASKED_MS
        elif slow_lately:
            ms = AFTER_SLOW_MS
        else:
            ms = FIRST_MS
        state = {"armed": True, "fired": False}

        def on_alarm(signum, frame):
            if state["armed"]:
                state["fired"] = True
                raise _Late()

        try:
            old_handler = signal.signal(signal.SIGALRM, on_alarm)
        except (ValueError, OSError, TypeError):
            return run()
        started = time.monotonic()
        old_delay, old_interval = signal.setitimer(signal.ITIMER_REAL, ms / 1000.0, REPEAT_S)
        result = None
        try:
            try:
                result = run()
            finally:
                state["armed"] = False
        except _Late:
            state["armed"] = False
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, old_handler)
            if old_delay > 0:
                # The program's own timer runs on as it would have.
                left = old_delay - (time.monotonic() - started)
                signal.setitimer(signal.ITIMER_REAL, max(left, 1e-6), old_interval)
        if not state["fired"]:
            return result
        _last_slow[0] = time.monotonic()
        type_object, type_name, resolver = module.get_type(val)
        qualifier = getattr(type_object, "__module__", "")
        return type_name, qualifier, False, resolver, MARKER % ms

    module.get_variable_details = get_variable_details
