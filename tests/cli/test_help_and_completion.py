"""Rich-formatted ``--help`` and the shell completion scripts of ``allfours completion``."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from allfours_notation.cli import COMMANDS, main

ROOT = Path(__file__).resolve().parents[2]
NAMES = [module.NAME for module in COMMANDS]


def script(shell: str, capsys: pytest.CaptureFixture[str]) -> str:
    assert main(["completion", shell]) == 0
    return capsys.readouterr().out


def test_help_lists_every_command_and_the_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["--help"])
    assert stop.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("Usage: allfours")  # rich-argparse's heading, not argparse's
    for name in NAMES:
        assert f"    {name}" in out
    assert "Exit codes: 0 clean" in out


def test_help_shows_afn_in_brackets_as_written(capsys: pytest.CaptureFixture[str]) -> None:
    """Help texts are not read as Rich markup: '[Rules "NAME"]' stays."""
    with pytest.raises(SystemExit):
        main(["rules", "--help"])
    assert '[Rules "NAME"]' in capsys.readouterr().out


def test_help_is_coloured_on_a_terminal() -> None:
    code = ("import sys; from allfours_notation.cli import build_parser; "
            "sys.stdout.isatty = lambda: True; build_parser().print_help()")
    env = {"PATH": "/usr/bin:/bin", "TERM": "xterm-256color", "FORCE_COLOR": "1"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=env, cwd=ROOT, check=True).stdout
    assert "\x1b[" in out and "check" in out


def test_a_command_that_runs_imports_neither_rich_argparse_nor_shtab() -> None:
    code = ("import sys; from allfours_notation.cli import main; "
            "main(['check', '--quiet', 'samples/club-night.afn']); "
            "print(sorted({m.split('.')[0] for m in sys.modules} & {'rich_argparse', 'shtab'}))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=ROOT, check=True).stdout
    assert out.strip().splitlines()[-1] == "[]"


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_every_shell_gets_a_script_naming_every_command(
    shell: str, capsys: pytest.CaptureFixture[str]
) -> None:
    text = script(shell, capsys)
    for name in NAMES:
        assert name in text
    assert "fill-seats" in text  # options of the subcommands too


def test_unknown_shell_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["completion", "powershell"])
    assert stop.value.code == 2
    assert "invalid choice" in capsys.readouterr().err


def complete_in_bash(completion: str, words: list[str], tmp_path: Path) -> list[str]:
    """What bash offers for the last of ``words`` once the script is sourced."""
    source = tmp_path / "allfours.bash"
    source.write_text(completion, encoding="utf-8")
    line = " ".join(words)
    probe = f"""
source {source}
COMP_WORDS=({" ".join(repr(word) for word in words)})
COMP_CWORD={len(words) - 1}
COMP_LINE={line!r}
COMP_POINT={len(line)}
_shtab_allfours allfours "{words[-1]}" "{words[-2]}"
printf '%s\\n' "${{COMPREPLY[@]}}"
"""
    result = subprocess.run(["bash", "--norc", "--noprofile", "-c", probe], cwd=tmp_path,
                            capture_output=True, text=True, check=True)
    return result.stdout.split()


def test_bash_completes_commands_options_choices_and_files(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    completion = script("bash", capsys)
    (tmp_path / "games.afn").write_text("", encoding="utf-8")
    assert complete_in_bash(completion, ["allfours", "ch"], tmp_path) == ["check"]
    assert complete_in_bash(completion, ["allfours", "export", "--sc"], tmp_path) == ["--schema"]
    assert complete_in_bash(completion, ["allfours", "completion", ""], tmp_path) == [
        "bash", "zsh", "fish"]
    assert complete_in_bash(completion, ["allfours", "view", "gam"], tmp_path) == ["games.afn"]


@pytest.mark.parametrize("shell", ["zsh", "fish"])
def test_the_script_is_valid_for_its_shell(
    shell: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    if shutil.which(shell) is None:
        pytest.skip(f"{shell} is not installed here")
    path = tmp_path / f"allfours.{shell}"
    path.write_text(script(shell, capsys), encoding="utf-8")
    subprocess.run([shell, "-n", str(path)], check=True, capture_output=True)
