"""Where a friend can reach this machine: its addresses, and what each one reaches.

``listening_socket`` opens the host's socket: by default on every address, IPv4 and IPv6
alike (one IPv6 socket that also takes IPv4, dual stack), where the machine has IPv6; on
IPv4 alone where it has not. ``machine_addresses`` lists this machine's addresses but
loopback and link-local ones (those need an interface's name on the friend's side),
``kind_of`` says which network each one reaches, and ``shown`` writes one as a friend
types it (IPv6 in brackets).
"""

from __future__ import annotations

import contextlib
import fcntl
import ipaddress
import socket
import struct
from pathlib import Path

from stress_tui.core.text import N_, Problem, harmless

EVERYWHERE = "::"
"""The default address to listen on: every address of the machine, IPv4 and IPv6."""

Address = ipaddress.IPv4Address | ipaddress.IPv6Address

_SIOCGIFADDR = 0x8915
"""Linux's ioctl that gives an interface's IPv4 address."""

_IF_INET6 = Path("/proc/net/if_inet6")
"""Linux's list of the IPv6 addresses of every interface."""

_VPN = ipaddress.ip_network("100.64.0.0/10")
"""The shared address space: carrier-grade NAT, and the VPNs that use it (Tailscale)."""


def listening_socket(bind: str, port: int) -> socket.socket:
    """A socket listening on ``bind`` and ``port``: for ``::`` (or nothing), every address
    of the machine, IPv4 and IPv6 (``IPV6_V6ONLY`` off), or every IPv4 one where the
    machine has no IPv6; ``OSError`` if it cannot be opened."""
    if bind in (EVERYWHERE, ""):
        try:
            return _listen(socket.AF_INET6, EVERYWHERE, port, dual=True)
        except OSError:
            return _listen(socket.AF_INET, "0.0.0.0", port)
    infos = socket.getaddrinfo(bind, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    family, _, _, _, where = infos[0]
    return _listen(family, str(where[0]), port)


def cannot_listen(bind: str, port: int, error: OSError) -> Problem:
    """Why no socket listens on ``bind`` (as typed: made harmless) and ``port``:
    ``listening_socket``'s ``error``."""
    why = (error.strerror or str(error)).lower()
    where = shown(harmless(bind), port)
    return Problem(N_("cannot listen on {where}: {why}"), where=where, why=why)


def _listen(family: int, address: str, port: int, dual: bool = False) -> socket.socket:
    # As TCP by name: asyncio turns Nagle's algorithm off (TCP_NODELAY) only on the
    # connections of a socket that says so, and a key must not wait for the next one.
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if dual:
            sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
        sock.bind((address, port))
        sock.listen(100)
        sock.setblocking(False)
    except OSError:
        sock.close()
        raise
    return sock


def machine_addresses() -> list[Address]:
    """This machine's addresses a friend may reach it at, this network's first (then a
    VPN's, then the internet's; IPv4 before IPv6): every interface's,
    loopback and link-local ones left out (as far as the system says: on Linux every
    one; elsewhere the one the machine would reach the internet from)."""
    found: list[Address] = []
    for name in _interfaces():
        ipv4 = _ipv4_of(name)
        if ipv4 is not None:
            found.append(ipv4)
    found += _ipv6_addresses()
    if not found:
        found = _outward()
    usable = [a for a in found if not (a.is_loopback or a.is_link_local or a.is_unspecified)]
    return sorted(set(usable), key=lambda a: (_rank(a), a.version, str(a)))


def _interfaces() -> list[str]:
    with contextlib.suppress(OSError):
        return [name for _, name in socket.if_nameindex()]
    return []


def _ipv4_of(interface: str) -> ipaddress.IPv4Address | None:
    """An interface's IPv4 address (Linux), ``None`` if it has none."""
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        request = struct.pack("256s", interface.encode()[:15])
        answer = fcntl.ioctl(sock.fileno(), _SIOCGIFADDR, request)
        return ipaddress.IPv4Address(answer[20:24])
    return None


def _ipv6_addresses() -> list[Address]:
    """Every interface's IPv6 addresses (Linux's ``/proc/net/if_inet6``)."""
    try:
        lines = _IF_INET6.read_text().splitlines()
    except OSError:
        return []
    found: list[Address] = []
    for line in lines:
        digits = line.split()[0] if line.split() else ""
        with contextlib.suppress(ValueError):
            found.append(ipaddress.IPv6Address(int(digits, 16)))
    return found


def _outward() -> list[Address]:
    """The addresses this machine would reach the internet from (no packet is sent: a
    datagram socket only chooses its route)."""
    found: list[Address] = []
    for family, far in ((socket.AF_INET, "192.0.2.1"), (socket.AF_INET6, "2001:db8::1")):
        quiet = contextlib.suppress(OSError, ValueError)
        with quiet, socket.socket(family, socket.SOCK_DGRAM) as sock:
            sock.connect((far, 9))
            found.append(ipaddress.ip_address(sock.getsockname()[0]))
    return found


def _rank(address: Address) -> int:
    """The order addresses are offered in: this network's first, then a VPN's, then the
    internet's."""
    return {N_("this network"): 0, N_("a VPN"): 1}.get(kind_of(address), 2)


def kind_of(address: Address) -> str:
    """Which network ``address`` reaches this machine from, in a few words (a text for
    ``_``): the same network (a private address), a VPN, or the internet.

    >>> kind_of(ipaddress.ip_address("192.168.1.20")), kind_of(ipaddress.ip_address("fd00::2"))
    ('this network', 'this network')
    >>> kind_of(ipaddress.ip_address("100.101.102.103"))
    'a VPN'
    >>> kind_of(ipaddress.ip_address("2a01:4f8::1")), kind_of(ipaddress.ip_address("203.0.114.5"))
    ('the internet, over IPv6', 'the internet')
    """
    if isinstance(address, ipaddress.IPv4Address) and address in _VPN:
        return N_("a VPN")
    if address.is_private:
        return N_("this network")
    return N_("the internet, over IPv6") if address.version == 6 else N_("the internet")


def as_typed(address: str) -> str:
    """An address a socket gave, as a person types it: an IPv4 address that a socket
    listening on IPv4 and IPv6 gives mapped into IPv6 is the IPv4 address.

    >>> as_typed("::ffff:192.0.2.2"), as_typed("2001:db8::2"), as_typed("192.0.2.2")
    ('192.0.2.2', '2001:db8::2', '192.0.2.2')
    """
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    mapped = ip.ipv4_mapped if isinstance(ip, ipaddress.IPv6Address) else None
    return address if mapped is None else str(mapped)


def shown(address: Address | str, port: int) -> str:
    """An address and port as a friend types them after ``join``: an IPv6 address in
    brackets.

    >>> shown(ipaddress.ip_address("fd00::2"), 7325), shown("192.0.2.2", 7325)
    ('[fd00::2]:7325', '192.0.2.2:7325')
    """
    text = str(address)
    return f"[{text}]:{port}" if ":" in text else f"{text}:{port}"
