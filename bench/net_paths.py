"""Fair races through real network stacks: the host and the joiner each in a network
namespace of their own, a relay between them that holds every packet for a delay.

Needs root and Linux (``ip netns``, ``ip link``). It makes two namespaces, ``fair27h``
(the host, 10.77.0.1/24) and ``fair27j`` (the joiner, 10.77.0.2/24), each with one end of
a veth pair; the pairs' other ends stay in this namespace, with no address, and a relay
(a child process of this script, ``--relay``) copies each Ethernet frame from one to the
other after the delay of its direction plus a jitter, never out of order within one
direction (``tc netem`` is not available here), with the devices' checksum and
segmentation offloads off so that each frame copied is whole and checked. Both TCP
stacks see the delay: the host's kernel times the path itself (``net.pathrtt``). One
process runs the host and the joiner (``bench.net_fairness.races``): its thread enters
the host's namespace to open the host's listening socket and the joiner's to connect.
Everything is taken down at the end, and at the start if a run before was cut short.

    sudo python bench/net_paths.py [--trials 30] [--jitter 10] [--paths 0/0,150/150]

prints, for each path (one-way delays host to joiner and joiner to host, in ms), the
share of races won by the earlier press by 40 ms or more, split by who pressed first, and
the share of races a joiner that answers pings 300 ms late won that it pressed 30 ms or
more after the host. A path's asymmetry cannot be known from either end: the host takes
half the round trip each way, so a joiner whose keys travel faster than its table's
updates is dated too far back, and one whose keys travel slower not far enough.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import ctypes
import fcntl
import heapq
import os
import random
import select
import socket
import struct
import subprocess
import sys
import time
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make `stress_tui` and `bench` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.net_fairness import CHEAT_OFFSETS, OFFSETS, Tally, races

HOST_NS = "fair27h"
JOINER_NS = "fair27j"
HOST_IF, JOINER_IF = "f27h0", "f27j0"
"""The veth ends inside the namespaces."""
RELAY_H, RELAY_J = "f27rh", "f27rj"
"""Their peers, here, between which the relay copies frames."""
HOST_ADDRESS = "10.77.0.1"
JOINER_ADDRESS = "10.77.0.2"

PATHS: tuple[tuple[float, float], ...] = (
    (0.0, 0.0),
    (0.05, 0.05),
    (0.15, 0.15),
    (0.0, 0.1),
    (0.1, 0.0),
    (0.0, 0.3),
    (0.3, 0.0),
)
"""One-way delays in seconds: host to joiner, joiner to host."""

CLONE_NEWNET = 0x40000000
SIOCETHTOOL = 0x8946
ETHTOOL_STXCSUM = 0x17
"""Turns a device's checksums on send off (and with them its segmentation offloads): a
frame copied from a veth with its checksum left to the hardware arrives with a wrong
one and is dropped."""
PACKET_OUTGOING = 4
ETH_P_ALL = 0x0003
RELAY_SECONDS = 3600
"""The longest a relay runs (it is also ended with its parent's run)."""


def _ip(*args: str, check: bool = True) -> None:
    subprocess.run(["ip", *args], check=check, capture_output=True)


def take_down() -> None:
    """Remove the namespaces and the veth pairs (those of a run cut short too)."""
    if _root_fd:
        enter(ROOT)
    for ns in (HOST_NS, JOINER_NS):
        _ip("netns", "del", ns, check=False)
    for link in (RELAY_H, RELAY_J):
        _ip("link", "del", link, check=False)


def set_up() -> None:
    """The two namespaces, their veth pairs and addresses; no offloads, so that the relay
    sees frames no larger than the line's."""
    take_down()
    for ns, inner, outer, address in (
        (HOST_NS, HOST_IF, RELAY_H, HOST_ADDRESS),
        (JOINER_NS, JOINER_IF, RELAY_J, JOINER_ADDRESS),
    ):
        _ip("netns", "add", ns)
        _ip("link", "add", outer, "type", "veth", "peer", "name", inner)
        _ip("link", "set", inner, "netns", ns)
        _ip("link", "set", outer, "gso_max_size", "1500", "gso_max_segs", "1", check=False)
        _ip("-n", ns, "link", "set", inner, "gso_max_size", "1500", "gso_max_segs", "1")
        _ip("-n", ns, "addr", "add", f"{address}/24", "dev", inner)
        _ip("-n", ns, "link", "set", inner, "up")
        _ip("-n", ns, "link", "set", "lo", "up")
        subprocess.run(
            ["sysctl", "-q", "-w", f"net.ipv6.conf.{outer}.disable_ipv6=1"],
            check=False,
            capture_output=True,
        )
        _ip("link", "set", outer, "up")
        no_offloads(outer)
        enter(ns)
        try:
            no_offloads(inner)
        finally:
            enter(ROOT)


ROOT = ""
"""The namespace this script starts in (the machine's): ``enter(ROOT)`` goes back."""

_root_fd: list[int] = []
"""An open handle on it, taken before the thread first leaves it."""


def no_offloads(device: str) -> None:
    """``ethtool -K DEVICE tx off`` (there is no ethtool here), in this thread's
    namespace."""
    command = ctypes.create_string_buffer(struct.pack("II", ETHTOOL_STXCSUM, 0))
    request = struct.pack("16sP", device.encode(), ctypes.addressof(command))
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        fcntl.ioctl(sock, SIOCETHTOOL, request)


def enter(ns: str) -> None:
    """Move this thread into namespace ``ns`` (a name under /run/netns, or ``ROOT``):
    sockets made before stay where they were made."""
    libc = ctypes.CDLL(None, use_errno=True)
    if not _root_fd:
        _root_fd.append(os.open("/proc/self/ns/net", os.O_RDONLY))
    fd = _root_fd[0] if ns == ROOT else os.open(f"/run/netns/{ns}", os.O_RDONLY)
    try:
        if libc.setns(fd, CLONE_NEWNET) != 0:
            raise OSError(ctypes.get_errno(), f"setns {ns or 'back'}")
    finally:
        if ns != ROOT:
            os.close(fd)


def relay(down: float, up: float, jitter: float, seed: int) -> None:
    """Copy frames between ``RELAY_H`` and ``RELAY_J`` (``down``: host to joiner), each held
    its direction's delay plus a jitter in [-jitter, +jitter], in order, for at most
    ``RELAY_SECONDS``."""
    rng = random.Random(seed)
    ends = {}
    for name in (RELAY_H, RELAY_J):
        sock = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_ALL))
        sock.bind((name, 0))
        sock.setblocking(False)
        ends[name] = sock
    to = {RELAY_H: (ends[RELAY_J], down), RELAY_J: (ends[RELAY_H], up)}
    last = {RELAY_H: 0.0, RELAY_J: 0.0}
    queue: list[tuple[float, int, str, bytes]] = []
    count = 0
    stop = time.monotonic() + RELAY_SECONDS
    by_fd = {sock.fileno(): name for name, sock in ends.items()}
    while time.monotonic() < stop:
        now = time.monotonic()
        wait = max(0.0, queue[0][0] - now) if queue else 1.0
        ready, _, _ = select.select(list(by_fd), [], [], wait)
        now = time.monotonic()
        for fd in ready:
            name = by_fd[fd]
            while True:
                try:
                    frame, address = ends[name].recvfrom(65536)
                except OSError:  # nothing more now (or the link went down and up)
                    break
                if address[2] == PACKET_OUTGOING:
                    continue
                delay = to[name][1]
                due = max(last[name], now + max(0.0, delay + rng.uniform(-1, 1) * jitter))
                last[name] = due
                count += 1
                heapq.heappush(queue, (due, count, name, frame))
        while queue and queue[0][0] <= time.monotonic():
            _, _, name, frame = heapq.heappop(queue)
            with contextlib.suppress(OSError):  # a frame it cannot carry is lost, as on a line
                to[name][0].send(frame)


class NamespacePath:
    """The joiner's way to the host through the namespaces and a relay (for ``races``)."""

    def __init__(self, down: float, up: float, jitter: float, seed: int) -> None:
        self.down, self.up, self.jitter, self.seed = down, up, jitter, seed
        self.relay: subprocess.Popen[bytes] | None = None
        self.min_rtt: float | None = None
        """The host's kernel measures the path itself."""
        self.bind = HOST_ADDRESS

    async def open(self, port: int) -> tuple[str, int]:
        enter(ROOT)
        self.relay = subprocess.Popen(
            [
                sys.executable,
                str(Path(__file__).resolve()),
                "--relay",
                f"{self.down},{self.up},{self.jitter},{self.seed}",
            ]
        )
        await asyncio.sleep(0.3)  # the relay's sockets bound
        enter(JOINER_NS)
        return HOST_ADDRESS, port

    def enter_host(self) -> None:
        enter(HOST_NS)

    async def close(self) -> None:
        enter(ROOT)
        if self.relay is not None:
            self.relay.terminate()
            self.relay.wait(5)


def _share(won: int, total: int) -> str:
    return f"{won / total:.0%} ({won}/{total})" if total else "-"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=30, help="races per path and kind")
    parser.add_argument("--jitter", type=float, default=10.0, help="jitter in ms (+-)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--paths", default="", help="down/up ms pairs, e.g. 0/0,150/150")
    parser.add_argument("--relay", default="", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.relay:
        down, up, jitter, seed = args.relay.split(",")
        relay(float(down), float(up), float(jitter), int(seed))
        return 0
    if os.geteuid() != 0 or not sys.platform.startswith("linux"):
        print("needs root on Linux (ip netns)", file=sys.stderr)
        return 2
    paths = PATHS
    if args.paths:
        pairs = [p.split("/") for p in args.paths.split(",")]
        paths = tuple((float(d) / 1e3, float(u) / 1e3) for d, u in pairs)
    jitter = args.jitter / 1e3
    print(
        f"races per cell: {args.trials}; jitter +-{args.jitter:g} ms; offsets (ms): "
        f"{[int(o * 1e3) for o in OFFSETS]}, the cheater's {[int(o * 1e3) for o in CHEAT_OFFSETS]}"
    )
    print()
    print(
        "| host to joiner | joiner to host | earlier by >= 40 ms won: joiner first "
        "| host first | cheater won, pressed >= 30 ms late |"
    )
    print("|---|---|---|---|---|")
    rng = random.Random(args.seed)
    enter(ROOT)  # a handle on this namespace, before any thread leaves it
    set_up()
    try:
        for down, up in paths:
            offsets = [rng.choice(OFFSETS) for _ in range(args.trials)]
            late = [rng.choice(CHEAT_OFFSETS) for _ in range(args.trials)]
            first = Tally()
            second = Tally()
            wait = max(down, up)
            path = NamespacePath(down, up, jitter, args.seed)
            split = (first, second)
            asyncio.run(races(wait, jitter, offsets, True, args.seed, path=path, split=split))
            path = NamespacePath(down, up, jitter, args.seed)
            cheat = asyncio.run(races(wait, jitter, late, True, args.seed, cheat=True, path=path))
            print(
                f"| {down * 1e3:.0f} ms | {up * 1e3:.0f} ms "
                f"| {_share(first.clear_won, first.clear)} "
                f"| {_share(second.clear_won, second.clear)} "
                f"| {_share(cheat.clear - cheat.clear_won, cheat.clear)} |",
                flush=True,
            )
    finally:
        take_down()
    return 0


if __name__ == "__main__":
    sys.exit(main())
