# TCP_NODELAY on pydevd's connection to the adapter (see adapter_boot.py):
# without it each small DAP message waits on Nagle's algorithm.
import socket

TARGET = "_pydevd_bundle.pydevd_comm"


def patch(module):
    start_client = module.start_client

    def start_client_nodelay(host, port):
        sock = start_client(host, port)
        try:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        except OSError:
            pass
        return sock

    module.start_client = start_client_nodelay
