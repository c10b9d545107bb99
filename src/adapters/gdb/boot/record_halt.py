# When `record full` meets an instruction it cannot record at the start of
# a resume, gdb stops the program but raises an error in place of a stop
# event (gdb 18): its DAP still holds the program as running, refuses every
# read with "notStopped", and sends no `stopped`. pairdbg asks this request
# once it has read the recorder's failure: where gdb's own thread is
# stopped while DAP thinks it runs, the stop DAP missed is sent.
import gdb


def _install():
    try:
        from gdb.dap import events
        from gdb.dap.server import request, send_event
    except Exception:
        return

    @request("pairdbgRecordHalt", expect_stopped=False)
    def record_halt(**args):
        thread = gdb.selected_thread()
        if thread is None or not thread.is_stopped() or not events.inferior_running:
            return {"sent": False}
        events.inferior_running = False
        send_event(
            "stopped",
            {
                "threadId": thread.global_num,
                "allThreadsStopped": True,
                "reason": "stopped",
            },
        )
        return {"sent": True}


_install()
