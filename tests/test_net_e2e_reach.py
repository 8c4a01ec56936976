"""Reaching a friend: the host listens on IPv4 and IPv6 alike by default, and its join line
names the addresses a friend may use and which network each one reaches it from."""

from __future__ import annotations

import ipaddress
import re
from pathlib import Path

import pytest

from stress_tui.terminal import netplay
from tests.nettable import both_ready, first_flip, wait_all
from tests.test_net_e2e import joining
from tests.tty import TtySession


def test_by_default_the_host_is_reached_over_ipv6_too(tmp_path: Path) -> None:
    """``join [::1]:PORT`` reaches a host started without ``--bind``, as does IPv4."""
    host = TtySession(
        args=["host", "--port", "0", "--name", "Ann"],
        env={"STRESS_TUI_NET_SEED": "0", "STRESS_TUI_DATA_DIR": str(tmp_path / "host")},
    )
    try:
        found: list[re.Match[bytes]] = []

        def printed() -> bool:
            found[:] = [m for m in [re.search(rb"open on port (\d+)", host.log)] if m]
            return bool(found) and b"Waiting for a player" in host.log

        wait_all(printed, "the join line", host)
        port = found[0].group(1).decode()
        code = re.search(rb"[a-z]+-[a-z]+-[a-z]+-[a-z]+", host.log[found[0].end() :])
        assert code is not None
        joiner = joining(tmp_path, f"[::1]:{port}", code.group(0).decode(), "--name", "Bo")
        try:
            wait_all(lambda: "Bo v Ann" in host.row(0), "Bo at the table", host, joiner)
            both_ready(host, joiner)
            first_flip(host, joiner)
            where = f"127.0.0.1:{port}"
            watcher = joining(tmp_path, where, code.group(0).decode(), command="watch")
            try:
                wait_all(lambda: "watching" in watcher.row(0), "IPv4 too", watcher, host)
            finally:
                watcher.close()
        finally:
            joiner.close()
    finally:
        host.close()


ADDRESSES = [
    ipaddress.ip_address(text)
    for text in ("192.168.1.20", "fd00::2", "100.101.102.103", "2a01:4f8::1", "203.0.114.5")
]


def test_the_join_lines_name_every_address_and_which_network_it_reaches(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(netplay, "machine_addresses", lambda: ADDRESSES)
    lines, which = netplay.join_lines("::", 7325, "otter-maple-drum-velvet")
    assert lines == [
        "stress-tui join 192.168.1.20:7325 otter-maple-drum-velvet",
        "stress-tui join [fd00::2]:7325 otter-maple-drum-velvet",
        "stress-tui join 100.101.102.103:7325 otter-maple-drum-velvet",
        "stress-tui join [2a01:4f8::1]:7325 otter-maple-drum-velvet",
        "stress-tui join 203.0.114.5:7325 otter-maple-drum-velvet",
    ]
    assert which == (
        "Which to use: 192.168.1.20:7325 from this network; [fd00::2]:7325 from this network;"
        " 100.101.102.103:7325 from a VPN; [2a01:4f8::1]:7325 from the internet, over IPv6;"
        " 203.0.114.5:7325 from the internet."
    )
    lines, _ = netplay.join_lines("0.0.0.0", 7325, "otter-maple-drum-velvet")
    assert [line.split()[2] for line in lines] == [
        "192.168.1.20:7325",
        "100.101.102.103:7325",
        "203.0.114.5:7325",
    ]
    assert netplay.join_lines("127.0.0.1", 9, "a-b-c-d") == (
        ["stress-tui join 127.0.0.1:9 a-b-c-d"],
        "",
    )
