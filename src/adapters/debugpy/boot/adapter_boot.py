# Starts debugpy's adapter with TCP_NODELAY on its own DAP sockets.
# debugpy leaves Nagle's algorithm on for the adapter<->debuggee link, and with
# delayed ACKs every request then costs ~40 ms on Linux (an open upstream issue).
# Only the adapter's DAP streams are touched.
import locale
import socket
import sys

import debugpy  # noqa: F401  (must be imported before debugpy.adapter.__main__)
from debugpy.common import messaging

_from_socket = messaging.JsonIOStream.from_socket.__func__


def _from_socket_nodelay(cls, sock, name=None):
    try:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    except OSError:
        pass
    return _from_socket(cls, sock, name)


messaging.JsonIOStream.from_socket = classmethod(_from_socket_nodelay)

try:
    locale.setlocale(locale.LC_ALL, "")
except Exception:
    pass

sys.argv[0] = "debugpy.adapter"
from debugpy.adapter.__main__ import main  # noqa: E402

main()
