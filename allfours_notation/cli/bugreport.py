"""``allfours bug-report`` (also ``allfours --version --verbose``): what a bug report
needs, in a few lines to paste into it: the package's version, Python's, the
platform's, every dependency's, and how the terminal is set up."""

from __future__ import annotations

import argparse
import locale
import os
import platform
import sys
from importlib import metadata

NAME = "bug-report"
HELP = "print what a bug report needs (versions, platform) to paste into it"
DESCRIPTION = """\
Print what a bug report needs: the versions of allfours-notation, Python, the
platform and every dependency, and how the terminal is set up.  Paste the output
into the report, with the file (or the smallest part of it) that shows the
problem and the command you ran.  CONTRIBUTING.md says where reports go;
SECURITY.md, for a problem that lets a file do harm.

Nothing is sent anywhere: this only prints.
"""

# The runtime dependencies (pyproject.toml) and what they bring that matters here,
# then the optional extras.
DEPENDENCIES = ("lark", "textual", "rich", "rich-argparse", "shtab", "pygls", "lsprotocol",
                "pygments")
OPTIONAL = ("matplotlib",)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    del parser  # no options


def version_of(distribution: str) -> str:
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return "not installed"


def report_lines() -> list[str]:
    from .. import __version__

    encoding = getattr(sys.stdout, "encoding", None) or "none"
    lines = [
        f"allfours-notation {__version__}",
        f"Python {platform.python_version()} ({platform.python_implementation()}, "
        f"{platform.python_compiler()})",
        f"platform {platform.platform()} ({platform.machine()})",
        f"encoding: locale {locale.getpreferredencoding(False)}, output {encoding}, "
        f"filesystem {sys.getfilesystemencoding()}",
        "terminal: " + ", ".join(f"{name}={os.environ.get(name) or '-'}"
                                 for name in ("TERM", "COLORTERM", "NO_COLOR")),
        "dependencies: " + ", ".join(f"{name} {version_of(name)}" for name in DEPENDENCIES),
        "optional: " + ", ".join(f"{name} {version_of(name)}" for name in OPTIONAL),
    ]
    return lines


def run(args: argparse.Namespace) -> int:
    del args
    print("\n".join(report_lines()))
    return 0
