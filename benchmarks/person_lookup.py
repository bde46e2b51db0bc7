"""Who owns a loopback connection: the kernel's ``sock_diag`` answer (what the room host
uses, ``rooms/people.py``) against reading ``/proc/net/tcp`` (its fallback), with
``--connections`` other loopback connections open (a host under a connection flood).

Run: ``.venv/bin/python benchmarks/person_lookup.py [--connections 2000] [--repeat 200]``

Prints each way's mean time per lookup and the ratio, measured in the same process
on the same socket; both must name this process's own uid.
"""

from __future__ import annotations

import argparse
import ipaddress
import os
import resource
import socket
import time

from triviador_nb.rooms import people


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--connections", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=200)
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, 2 * args.connections + 100)), hard))
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(4096)
    crowd = []
    for _ in range(args.connections):
        crowd.append(socket.create_connection(server.getsockname()))
        crowd.append(server.accept()[0])
    client = socket.create_connection(server.getsockname())
    accepted, remote = server.accept()
    local = accepted.getsockname()
    ip, host_ip = ipaddress.ip_address(remote[0]), ipaddress.ip_address(local[0])
    ways = {"sock_diag (the host's)": lambda: people._ask_kernel(ip, remote[1], host_ip, local[1]),
            "/proc/net/tcp (fallback)": lambda: people._read_proc(ip, remote[1], host_ip, local[1])}
    times = {}
    for name, way in ways.items():
        assert way() == os.getuid(), name
        start = time.perf_counter()
        for _ in range(args.repeat):
            way()
        times[name] = (time.perf_counter() - start) / args.repeat
    base = times["sock_diag (the host's)"]
    print(f"{args.connections} other loopback connections open ({2 * args.connections} sockets)")
    for name, seconds in times.items():
        print(f"  {name:26s} {seconds * 1000:8.3f} ms per lookup   x{seconds / base:7.1f}")
    for s in crowd + [client, accepted, server]:
        s.close()


if __name__ == "__main__":
    main()
