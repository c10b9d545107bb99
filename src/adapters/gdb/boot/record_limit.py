# A recording that fills up (`record full`'s insn-number-max) makes gdb ask
# whether to drop its oldest instructions. With no terminal to ask, the
# answer is yes, and the program runs on, recorded at a fraction of its
# speed, with no end a caller can wait for. This stops it instead, once per
# recording: within a tick of the recording filling, the program is
# interrupted and the reason written where pairdbg reads the recording's
# failures ("Process record: ..."). Going on from there drops the oldest.
import threading

import gdb

TICK = 0.05
# "off": found not recording since the program last went on. A recording
# starts only at a stop, so a run found without one is not looked at again.
_state = {"running": False, "told": False, "off": False}


def _number(text, prefix):
    for line in text.splitlines():
        line = line.strip()
        if line.startswith(prefix):
            word = line[len(prefix):].split()[0].rstrip(".")
            try:
                return int(word)
            except ValueError:
                return None
    return None


def _check():
    if not _state["running"]:
        return
    try:
        text = gdb.execute("info record", to_string=True)
    except gdb.error:
        return
    count = _number(text, "Log contains ")
    most = _number(text, "Max logged instructions is ")
    lowest = _number(text, "Lowest recorded instruction number is ")
    if count is None or most is None:
        _state["told"] = False
        _state["off"] = True
        return
    full = count >= most or (lowest or 1) > 1
    if not full:
        _state["told"] = False
        return
    if _state["told"]:
        return
    thread = gdb.selected_thread()
    if thread is None or not thread.is_running():
        return
    _state["told"] = True
    gdb.write(
        "Process record: the recording is full at its limit of %d instructions;"
        " going on drops the oldest.\n" % most
    )
    try:
        # Told to DAP as the recording's stop, not as a SIGINT the
        # program received.
        from gdb.dap.events import exec_and_expect_stop, expect_stop

        expect_stop("recording full")
        exec_and_expect_stop("interrupt", True)
    except ImportError:
        gdb.execute("interrupt")


def _tick():
    stop = threading.Event()
    while not stop.wait(TICK):
        if _state["running"] and not _state["off"]:
            try:
                gdb.post_event(_check)
            except Exception:
                return


def _on_cont(_event):
    _state["running"] = True
    _state["off"] = False


def _on_stop(_event):
    _state["running"] = False


gdb.events.cont.connect(_on_cont)
gdb.events.stop.connect(_on_stop)
gdb.events.exited.connect(_on_stop)
threading.Thread(target=_tick, name="pairdbg-record-limit", daemon=True).start()
