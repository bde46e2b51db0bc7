"""Who is on the other end of a room connection, for limits: a person, not a machine (issue 28).

A room host counts failed joins, new names, names held and connections
that have not joined **per person**. On a one-machine JupyterHub every
student's kernel reaches the host from 127.0.0.1, so an address is the
whole class; the host tells students apart by what it can know:

1. Behind JupyterHub (``hub=``): the hub user the kernel's token names
   (``"hub:anna"``; :mod:`.identity`).
2. A TCP connection from this machine, on Linux: the **Unix user** that
   owns the connecting socket (``"user:jupyter-anna"``). The kernel tells it
   at once: one ``sock_diag`` netlink request names the socket by its
   addresses and ports and answers its owner's uid (about 0.1 ms, any user
   may ask, nothing to set up); where netlink is not allowed, the socket's
   line in ``/proc/net/tcp`` (or ``tcp6``) gives the same ``uid`` column.
   No Unix socket is needed: the students' kernels connect as before.
3. Anything else: the peer's IP address (a laptop on a classroom network
   is one person; 127.0.0.1, or this machine's own network address, where
   the user cannot be found is a machine). A socket its program already
   closed has no user (the kernel reports uid 0 for it): it counts under
   its address.

:func:`is_one_person` says whether a key stands for one person (per-person
limits apply) or may be many (a shared address: the old per-address limits).
No sockets of the room's own here; no widgets.
"""

from __future__ import annotations

import ipaddress
import os
import pwd
import socket
import struct

_SOCK_DIAG_BY_FAMILY = 20  # linux/sock_diag.h
_NETLINK_SOCK_DIAG = 4  # linux/netlink.h (NETLINK_INET_DIAG)
_NLMSG_ERROR = 2
_NO_COOKIE = 0xFFFFFFFF  # INET_DIAG_NOCOOKIE: look the socket up by its addresses alone
_UID_AT = 16 + 4 + 48 + 12  # nlmsghdr, inet_diag_msg's four bytes, its sockid, expires/rqueue/wqueue
MACHINE = "machine:"  # a key for this machine's own network address when the socket's user is unknown


def person_key(remote: tuple | None, local: tuple | None, hub_user: str | None = None) -> str:
    """The key a connection's limits count under.

    Args:
        remote: the peer's ``(address, port, ...)`` as the server socket sees it.
        local: the server socket's own ``(address, port, ...)``.
        hub_user: the JupyterHub user the handshake's token named, if any.

    Returns:
        ``"hub:<user>"``, ``"user:<unix name>"`` (``"uid:<n>"`` for a uid
        without a name), ``"machine:<address>"`` for this machine's own
        network address whose user is unknown, or the peer's address
        (``"?"`` when unknown).
    """
    if hub_user is not None:
        return f"hub:{hub_user}"
    if not remote:
        return "?"
    address = str(remote[0])
    # this machine: loopback, or the machine's own address (a student's kernel that dialled the host by the
    # machine's network address); such an address whose user cannot be found is many people, not one
    here = bool(local) and (_is_loopback(address) or address == str(local[0]))
    uid = unix_user(remote, local) if here else None
    if uid is None:
        return address if not here or _is_loopback(address) else f"{MACHINE}{address}"
    try:
        return f"user:{pwd.getpwuid(uid).pw_name}"
    except KeyError:
        return f"uid:{uid}"


def is_one_person(key: str) -> bool:
    """Whether ``key`` (:func:`person_key`) stands for one person: a hub or
    Unix user, or an address that is not this machine's loopback."""
    if key.startswith(("hub:", "user:", "uid:")):
        return True
    return key != "?" and not key.startswith(MACHINE) and not _is_loopback(key)


def own_key() -> str:
    """The key of this process's own Unix user (the teacher's, for a host in their kernel)."""
    try:
        return f"user:{pwd.getpwuid(os.getuid()).pw_name}"
    except KeyError:
        return f"uid:{os.getuid()}"


def unix_user(remote: tuple, local: tuple) -> int | None:
    """The uid owning the socket at ``remote`` that is connected to ``local``
    on this machine (Linux), or None when it cannot be found.

    Asks the kernel with one ``sock_diag`` request; falls back to reading
    ``/proc/net/tcp`` / ``tcp6`` where netlink is not allowed.
    """
    try:
        client, server = ipaddress.ip_address(remote[0]), ipaddress.ip_address(local[0])
        client_port, server_port = int(remote[1]), int(local[1])
    except (ValueError, TypeError, IndexError):
        return None
    if client.version == 6 and client.ipv4_mapped is not None:  # an IPv4 client of a dual-stack server
        client = client.ipv4_mapped
        server = server.ipv4_mapped if server.version == 6 and server.ipv4_mapped is not None else server
    if client.version != server.version:
        return None
    try:
        return _ask_kernel(client, client_port, server, server_port)
    except OSError:
        return _read_proc(client, client_port, server, server_port)


def _ask_kernel(client, client_port: int, server, server_port: int) -> int | None:
    """One ``SOCK_DIAG_BY_FAMILY`` request for the exact socket (not a dump)."""
    family = socket.AF_INET if client.version == 4 else socket.AF_INET6
    request = (struct.pack("=BBBxI", family, socket.IPPROTO_TCP, 0, 0xFFFFFFFF)
               + struct.pack(">HH", client_port, server_port)
               + client.packed.ljust(16, b"\0") + server.packed.ljust(16, b"\0")
               + struct.pack("=III", 0, _NO_COOKIE, _NO_COOKIE))
    header = struct.pack("=LHHLL", 16 + len(request), _SOCK_DIAG_BY_FAMILY, 1, 1, 0)  # NLM_F_REQUEST
    with socket.socket(socket.AF_NETLINK, socket.SOCK_DGRAM, _NETLINK_SOCK_DIAG) as diag:
        diag.settimeout(1.0)
        diag.sendto(header + request, (0, 0))
        answer = diag.recv(4096)
    if len(answer) < _UID_AT + 4:
        return None  # an error answer (no such socket: it closed, or lives in another network namespace)
    _length, kind = struct.unpack_from("=LH", answer)
    if kind != _SOCK_DIAG_BY_FAMILY:
        return None
    uid, inode = struct.unpack_from("=II", answer, _UID_AT)
    # a socket its program already closed (FIN_WAIT, TIME_WAIT: no inode) is nobody's: the kernel says uid 0
    return uid if inode else None


def _read_proc(client, client_port: int, server, server_port: int) -> int | None:
    """The ``uid`` column of the client socket's line in ``/proc/net/tcp(6)``."""
    wanted = f"{_proc_hex(client)}:{client_port:04X} {_proc_hex(server)}:{server_port:04X} "
    try:
        with open("/proc/net/tcp" if client.version == 4 else "/proc/net/tcp6", encoding="ascii") as table:
            text = table.read()
    except OSError:
        return None
    at = text.find(wanted)
    if at < 0:
        return None
    fields = text[at:text.find("\n", at)].split()
    try:  # local, remote, st, tx:rx, tr:when, retrnsmt, uid, timeout, inode (0: closed by its program)
        return int(fields[6]) if int(fields[8]) else None
    except (IndexError, ValueError):
        return None


def _proc_hex(address) -> str:
    """An address as ``/proc/net/tcp`` writes it: each 32-bit word in host (little-endian) order."""
    packed = address.packed
    return "".join(packed[i:i + 4][::-1].hex().upper() for i in range(0, len(packed), 4))


def _is_loopback(address: str) -> bool:
    try:
        return ipaddress.ip_address(address.split("%")[0]).is_loopback or address.startswith("::ffff:127.")
    except ValueError:
        return False

