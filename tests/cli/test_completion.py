"""Shell completion is on: ``--install-completion`` / ``--show-completion``, and the completion
requests a shell sends complete command names and options (the whole command tree is loaded
for them; a normal command line still loads only its own command)."""

from __future__ import annotations

import sys

import pytest

from tracker.cli import main


def complete(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], words: str
) -> list[str]:
    monkeypatch.setattr(sys, "argv", ["tracker"])
    monkeypatch.setenv("_TRACKER_COMPLETE", "complete_bash")
    monkeypatch.setenv("COMP_WORDS", words)
    monkeypatch.setenv("COMP_CWORD", str(len(words.split()) - (0 if words.endswith(" ") else 1)))
    with pytest.raises(SystemExit) as exit_info:
        main()
    assert exit_info.value.code in (0, None)
    return capsys.readouterr().out.split()


def test_commands_and_options_complete(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert complete(monkeypatch, capsys, "tracker pl") == ["player"]
    assert complete(monkeypatch, capsys, "tracker st") == ["status"]
    assert complete(monkeypatch, capsys, "tracker game ad") == ["add", "add-round"]
    assert "--round" in complete(monkeypatch, capsys, "tracker game add-round X --")
    assert complete(monkeypatch, capsys, "tracker --install") == ["--install-completion"]


def test_show_completion_prints_a_script(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "argv", ["tracker", "--show-completion", "bash"])
    with pytest.raises(SystemExit) as exit_info:
        main()
    assert exit_info.value.code in (0, None)
    script = capsys.readouterr().out
    assert "_TRACKER_COMPLETE=complete_bash" in script
    assert "complete -o default -F _tracker_completion tracker" in script
