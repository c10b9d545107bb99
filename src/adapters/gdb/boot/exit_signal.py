# gdb's DAP says a program killed by a signal exited with code 0: its
# `exited` handler reads only an exit code, which such an end has none of.
# This puts the signal on the console just before, where pairdbg reads it.
import gdb


def _install():
    try:
        from gdb.dap import events
        from gdb.dap.server import send_event
    except Exception:
        return
    original = events._on_exit

    def on_exit(event):
        if not hasattr(event, "exit_code"):
            try:
                signal = int(gdb.parse_and_eval("$_exitsignal"))
                send_event(
                    "output",
                    {
                        "category": "console",
                        "output": "Program terminated with signal %d.\n" % signal,
                    },
                )
            except Exception:
                pass
        original(event)

    gdb.events.exited.disconnect(original)
    gdb.events.exited.connect(on_exit)


_install()
