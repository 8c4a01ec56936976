"""The host, join, watch and serve commands refuse what is wrong with them in one line
(exit 2)."""

from __future__ import annotations

import socket
from collections.abc import Iterator

import pytest

from stress_tui.cli.main import main
from stress_tui.net import DEFAULT_PORT
from stress_tui.net.protocol import parse_address


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["host", "--seed", "3"], "--seed: not with the host command"),
        (["host", "--port", "70000"], "--port: must be a port from 1 to 65535"),
        (["host", "--name", "Ann\x1b[2J"], "--name: "),
        (["host", "--row", "99"], "--row: "),
        (["join", "nohost:99999", "otter-maple-drum-velvet"], "'99999' is not a port"),
        (["join", "127.0.0.1", "otter", "maple"], "CODE: a join code is 4 words"),
        (["join", "127.0.0.1", "otter-maple-drum-zzz"], "'zzz' is not one of the join code's"),
        (["watch", "[::1", "otter-maple-drum-velvet"], "needs its closing ]"),
        (["join", "127.0.0.1"], "the following arguments are required: CODE"),
    ],
)
def test_a_bad_network_command_is_one_line(
    argv: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("stress-tui: ")
    assert said in err
    assert "\x1b" not in err


def test_addresses_with_and_without_a_port() -> None:
    assert parse_address("localhost") == ("localhost", DEFAULT_PORT)
    assert parse_address("192.0.2.7:8000") == ("192.0.2.7", 8000)
    assert parse_address("[::1]:8000") == ("::1", 8000)
    assert parse_address("::1") == ("::1", DEFAULT_PORT)


def test_the_help_names_the_network_commands(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    for usage in ("host [--port N]", "join HOST[:PORT] CODE", "watch HOST[:PORT] CODE"):
        assert usage in out


@pytest.fixture
def taken_port() -> Iterator[int]:
    """A port something on this machine already listens on (127.0.0.1)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        yield sock.getsockname()[1]


@pytest.mark.parametrize("command", ["host", "serve"])
def test_host_and_serve_refuse_where_they_cannot_listen_in_the_same_line(
    command: str,
    taken_port: int,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A port out of range, or no socket on the address and port asked for (an address
    not this machine's, a port taken): one line, the same from both commands, status 2."""
    # As on a terminal: host asks for one before it listens (its table then takes it).
    monkeypatch.setattr("stress_tui.cli.tty.no_terminal", lambda: False)
    monkeypatch.setattr("stress_tui.terminal.app.on_a_terminal", lambda: True)
    monkeypatch.setattr("stress_tui.terminal.app.unfit_terminal", lambda: None)
    for flags, said in [
        (["--port", "70000"], "--port: must be a port from 1 to 65535 (0: any free one), "),
        (["--port", "x"], '--port: "x" is not a whole number'),
        (["--bind", "192.0.2.1", "--port", "7"], "cannot listen on 192.0.2.1:7: cannot assign"),
        (
            ["--bind", "127.0.0.1", "--port", str(taken_port)],
            f"cannot listen on 127.0.0.1:{taken_port}: address already in use",
        ),
        (["--bind", "2001:db8::1", "--port", "7"], "cannot listen on [2001:db8::1]:7: "),
        (["--bind", "\x1b[2J", "--port", "7"], "cannot listen on \\u001B[2J:7: "),
    ]:
        assert main([command, *flags]) == 2, flags
        out, err = capsys.readouterr()
        assert err.startswith(f"stress-tui: {said}") and err.count("\n") == 1, err
        assert out == ""


def test_serves_limits_are_whole_numbers_from_1_as_sims_counts_are(
    capsys: pytest.CaptureFixture[str],
) -> None:
    for argv in (["serve", "--max-sessions", "0"], ["sim", "--games", "0"]):
        assert main(argv) == 2
        flag = argv[1]
        assert capsys.readouterr().err == f"stress-tui: {flag}: must be at least 1, not 0\n"
