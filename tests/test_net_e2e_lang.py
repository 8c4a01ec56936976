"""A host who reads Swedish and a joiner who reads German, each program in its own
pseudo-terminal over loopback: what the host says of the match (who left, why a join was
refused) reaches each screen in its own reader's language."""

from __future__ import annotations

from pathlib import Path

from tests.nettable import wait_all
from tests.test_net_e2e import hosting, joining
from tests.tty import TtySession

SV_WAITING = "Väntar på en spelare"
SV_STARTS = "Omgången börjar när båda trycker på sin redo-tangent"
DE_STARTS = "Die Runde beginnt, wenn beide ihre Bereit-Taste drücken"


def swedish_and_german(tmp_path: Path) -> tuple[TtySession, TtySession, str, str]:
    """Ann hosts in Swedish, Bo joins in German; both say they are ready."""
    host, where, code = hosting(tmp_path, "--lang", "sv", waiting=SV_WAITING)
    assert "(ledig plats) mot Ann" in host.text()  # the open seat, in the host's language
    joiner = joining(tmp_path, where, code, "--name", "Bo", "--lang", "de")
    wait_all(
        lambda: SV_STARTS in host.text() and DE_STARTS in joiner.text(),
        "the round waiting, in each one's language",
        host,
        joiner,
    )
    joiner.send("g")  # the ready key, on both keyboards
    host.send("g")
    wait_all(
        lambda: "1 kort" in host.text() and "1 Karte" in joiner.text(),
        "the first flip",
        host,
        joiner,
    )
    return host, joiner, where, code


def test_refusals_and_the_host_leaving_are_said_in_the_joiners_language(tmp_path: Path) -> None:
    host, joiner, where, code = swedish_and_german(tmp_path)
    try:
        third = joining(tmp_path, where, code, "--name", "Cy", "--lang", "de")
        assert third.wait_exit(timeout=10) == 2
        assert "lehnt ab: der Tisch ist voll: Bo spielt" in third.log.decode(errors="replace")
        words = code.split("-")
        wrong = "-".join(["otter" if words[0] != "otter" else "maple", *words[1:]])
        guess = joining(tmp_path, where, wrong, "--name", "Cy", "--lang", "sv")
        assert guess.wait_exit(timeout=10) == 2
        assert "nekade: fel anslutningskod" in guess.log.decode(errors="replace")
        host.send("\x1b")
        wait_all(lambda: "Pause von Ann" in joiner.text(), "the pause", host, joiner)
        host.send("q")  # Ann leaves: Bo reads it in German
        assert host.wait_exit(timeout=10) == 0
        wait_all(lambda: "Ann ist gegangen" in joiner.text(), "Ann's leaving", joiner)
    finally:
        joiner.close()
        host.close()


def test_the_joiner_leaving_is_said_in_the_hosts_language(tmp_path: Path) -> None:
    host, joiner, _, _ = swedish_and_german(tmp_path)
    try:
        joiner.send("\x1b")
        wait_all(lambda: "pausat av Bo" in host.text(), "the pause", host, joiner)
        joiner.send("q")
        assert joiner.wait_exit(timeout=10) == 0
        wait_all(lambda: "Bo gick" in host.text(), "Bo's leaving, in Swedish", host)
    finally:
        joiner.close()
        host.close()
