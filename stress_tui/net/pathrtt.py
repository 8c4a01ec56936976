"""What the host's own kernel knows of a connection's round trip, and how far back that
lets a joiner's action be dated.

The host measures round trips with pings, but the joiner decides when to answer them: a
joiner that answers late makes its line look slower and would have its keys dated further
back than they travelled. The kernel's TCP stack times the same path from acknowledgements
the joiner's kernel sends as segments arrive, which a client program does not send itself
(``TCP_INFO``: ``tcpi_min_rtt``, the smallest round trip it saw in the kernel's window,
``net.ipv4.tcp_min_rtt_wlen``, 300 s by default). So a joiner's action is dated back by
half the smallest round trip its pings showed, never by more than half the kernel's plus
``PATH_MARGIN``: what a lying client gains is that margin's half, not the cap. Where the
kernel does not say (not Linux, not TCP), the pings alone bound it, and the cap.
"""

from __future__ import annotations

import contextlib
import socket
import struct
from collections.abc import Iterable
from typing import Any

TCP_INFO_RTT = 68
"""Byte offset of ``tcpi_rtt`` (microseconds, ``__u32``) in Linux's ``struct tcp_info``:
8 one-byte fields, then 15 ``__u32`` (``rto``, ``ato``, ``snd_mss``, ``rcv_mss``,
``unacked``, ``sacked``, ``lost``, ``retrans``, ``fackets``, four ``last_*`` times,
``pmtu``, ``rcv_ssthresh``)."""

TCP_INFO_MIN_RTT = 148
"""Byte offset of ``tcpi_min_rtt`` (microseconds, ``__u32``, Linux 4.6 and later): after
``rtt`` .. ``total_retrans`` (9 ``__u32`` from 68), four ``__u64`` from 104 (pacing rates,
bytes acked and received), then ``segs_out``, ``segs_in``, ``notsent_bytes``."""

PATH_MARGIN = 0.01
"""Seconds of round trip the pings may show beyond the kernel's smallest: the two
programs' own time to read a ping and answer it, which an honest joiner's pings carry and
the kernel's acknowledgements do not."""


def kernel_rtt(sock: Any) -> float | None:
    """The smallest round trip, in seconds, the kernel measured on ``sock`` (a TCP socket;
    the smoothed one where the kernel has no minimum); ``None`` where the kernel does not
    say (not Linux, not TCP, no sample yet)."""
    option = getattr(socket, "TCP_INFO", None)
    if option is None or sock is None:
        return None
    try:
        info = sock.getsockopt(socket.IPPROTO_TCP, option, 256)
    except (OSError, AttributeError, TypeError):
        return None
    if not isinstance(info, bytes):
        return None
    micros = 0
    if len(info) >= TCP_INFO_MIN_RTT + 4:
        micros = struct.unpack_from("=I", info, TCP_INFO_MIN_RTT)[0]
    if (micros == 0 or micros == 0xFFFFFFFF) and len(info) >= TCP_INFO_RTT + 4:
        micros = struct.unpack_from("=I", info, TCP_INFO_RTT)[0]
    if micros == 0 or micros == 0xFFFFFFFF:
        return None
    return micros / 1e6


def writer_rtt(writer: Any) -> float | None:
    """``kernel_rtt`` of an asyncio stream writer's socket."""
    with contextlib.suppress(Exception):
        return kernel_rtt(writer.get_extra_info("socket"))
    return None


def dated_back(round_trips: Iterable[float], kernel: float | None, cap: float) -> float:
    """Seconds a joiner's action is dated back: half the smallest of ``round_trips`` (the
    pings' answers), at most half of ``kernel`` plus ``PATH_MARGIN`` (where the kernel
    said), at most ``cap``; 0 with no round trip measured."""
    smallest = min(round_trips, default=None)
    if smallest is None:
        return 0.0
    if kernel is not None:
        smallest = min(smallest, kernel + PATH_MARGIN)
    return max(0.0, min(cap, smallest / 2))
