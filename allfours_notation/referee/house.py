"""House rules: a club's own profile, written in a TOML file.

A club plays one of the published profiles with a few changes.  Its file names
the profile it starts from, the changes, and where each change comes from::

    name = "arima"
    description = "Arima club: Trinidad rules, to 21, no Hang Jack"
    base = "trinidad14"          # optional; hoffmann1909 when left out

    [options]
    target = 21
    hang_jack = "off"

    [sources]
    target = "club committee, 2025"
    hang_jack = "club rule 4"

``allfours check --rules-file club.toml`` (and ``score``) plays every game that
names no profile, or names this one as ``[Rules "club:arima"]``, under it; a game
naming a published profile keeps it.  ``allfours rules --file club.toml`` prints it.

Every problem with the file is an AFN506 diagnostic positioned in the file: a
TOML syntax error where tomllib stopped, an unknown option or a bad value at its
key.  A change without a source line is a warning (the point of the file is to
say where each rule comes from).
"""

from __future__ import annotations

import dataclasses
import re
import tomllib
from collections.abc import Mapping
from typing import Any

from ..diagnostics import Diagnostic, Severity
from ..frozen import frozen
from ..limits import overlong_number
from .profiles import (
    DEFAULT_PROFILE,
    OPTION_NAMES,
    PROFILES,
    Profile,
    choices_text,
    parse_option_value,
)

CODE = "AFN506"
CLUB_PREFIX = "club:"
_NAME = re.compile(r"[a-z0-9][a-z0-9_-]*")
_TOP_KEYS = ("name", "description", "base", "options", "sources")
_AT = re.compile(r"\(at line (\d+), column (\d+)\)")


@frozen
class HouseRules:
    """A loaded house-rules file: its profile (``None`` when the file has errors)
    and every problem found, positioned in the file."""

    profile: Profile | None
    diagnostics: tuple[Diagnostic, ...]


def club_name(profile: Profile) -> str:
    """``club:arima``: how a record names a house profile in its ``[Rules]`` tag."""
    return CLUB_PREFIX + profile.name


def load_house_rules(text: str, filename: str) -> HouseRules:
    """Read a house-rules file; every problem becomes a positioned diagnostic."""
    found = _Found(filename, text)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        line, column = _position(str(error))
        found.add(f"not valid TOML: {_AT.sub('', str(error)).strip()}", line, column)
        return HouseRules(None, found.diagnostics())
    except ValueError:  # a number too long to convert: tomllib gives no position
        line, column, digits = overlong_number(text) or (1, 1, 0)
        found.add(f"a number of {digits:,} digits: too long to read", line, column)
        return HouseRules(None, found.diagnostics())
    profile = _profile(data, found)
    problems = found.diagnostics()
    if any(d.is_error for d in problems):
        return HouseRules(None, problems)
    return HouseRules(profile, problems)


def _profile(data: Mapping[str, Any], found: _Found) -> Profile | None:
    for key in data:
        if key not in _TOP_KEYS:
            found.add(f"unknown key {key!r}; a house-rules file has "
                      + ", ".join(_TOP_KEYS), *found.key_at(key))
    name = _text(data, "name", found)
    description = _text(data, "description", found)
    if name is not None and not _NAME.fullmatch(name):
        found.add(f"name {name!r}: use lower-case letters, digits, '-' and '_'",
                  *found.key_at("name"))
    base_name = data.get("base", DEFAULT_PROFILE)
    base = PROFILES.get(str(base_name).strip().lower())
    if base is None:
        found.add(f"base {base_name!r} is not a profile; the profiles are "
                  + ", ".join(PROFILES), *found.key_at("base"))
        base = PROFILES[DEFAULT_PROFILE]
    options = base.options
    changes: dict[str, object] = {}
    table = _table(data, "options", found)
    for option, raw in table.items():
        where = found.key_at(option, table="options")
        if option not in OPTION_NAMES:
            found.add(f"unknown option {option!r}; the options are " + ", ".join(OPTION_NAMES),
                      *where)
            continue
        value = parse_option_value(option, str(raw)) if isinstance(raw, (str, int)) and \
            not isinstance(raw, bool) else None
        if value is None:
            found.add(f"{option} = {raw!r} is not a value of {option}; the values are "
                      + choices_text(option), *where)
            continue
        changes[option] = value
    sources = _table(data, "sources", found)
    for option, source in sources.items():
        if option not in changes and option not in OPTION_NAMES:
            found.add(f"a source for {option!r}, which is not an option",
                      *found.key_at(option, table="sources"))
        elif not isinstance(source, str):
            found.add(f"the source of {option} must be text",
                      *found.key_at(option, table="sources"))
    for option in changes:
        if not isinstance(sources.get(option), str):
            found.add(f"{option} is changed but [sources] does not say where the rule comes "
                      "from", *found.key_at(option, table="options"),
                      severity=Severity.WARNING)
    if name is None or description is None:
        return None
    options = dataclasses.replace(options, **changes)  # type: ignore[arg-type]
    merged = {**base.sources,
              **{option: f"club {name}: house rule" for option in changes},
              **{k: v for k, v in sources.items() if isinstance(v, str)}}
    return Profile(name, f"{description} (house rules, based on {base.name})", options, merged)


def _text(data: Mapping[str, Any], key: str, found: _Found) -> str | None:
    value = data.get(key)
    if isinstance(value, str) and value.strip():
        return value.strip()
    if value is None:
        found.add(f"the file needs {key} = \"...\"", 1, 1)
    else:
        found.add(f"{key} must be a non-empty string", *found.key_at(key))
    return None


def _table(data: Mapping[str, Any], key: str, found: _Found) -> dict[str, Any]:
    value = data.get(key, {})
    if isinstance(value, dict):
        return value
    found.add(f"{key} must be a table: [{key}]", *found.key_at(key))
    return {}


def _position(message: str) -> tuple[int, int]:
    match = _AT.search(message)
    if match is None:
        return 1, 1
    return int(match.group(1)), int(match.group(2))


class _Found:
    """The diagnostics of one file, and where a key is written in it."""

    def __init__(self, filename: str, text: str) -> None:
        self.filename = filename
        self.lines = text.splitlines()
        self.found: list[Diagnostic] = []

    def add(self, message: str, line: int, column: int, end: int | None = None, *,
            severity: Severity = Severity.ERROR) -> None:
        self.found.append(Diagnostic(CODE, severity, message, file=self.filename, line=line,
                                     column=column, end_column=end))

    def key_at(self, key: str, *, table: str | None = None) -> tuple[int, int, int]:
        """The line and columns of ``key = …`` (inside ``[table]`` when given); the
        first line when it cannot be found (tomllib gives no positions for keys)."""
        current: str | None = None
        pattern = re.compile(rf"\s*(\"?){re.escape(key)}\1\s*=")
        for number, text in enumerate(self.lines, start=1):
            header = re.match(r"\s*\[([^\]]+)\]", text)
            if header:
                current = header.group(1).strip()
                if table is None and current == key:
                    column = text.index("[") + 1
                    return number, column, column + len(key) + 2
                continue
            if current == table and pattern.match(text):
                column = len(text) - len(text.lstrip()) + 1
                return number, column, column + len(key)
        return 1, 1, 2

    def diagnostics(self) -> tuple[Diagnostic, ...]:
        """In the order of the file's lines."""
        return tuple(sorted(self.found, key=lambda d: (d.line or 0, d.column or 0)))
