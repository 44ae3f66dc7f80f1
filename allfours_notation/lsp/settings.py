"""The server's settings: which rules the games are checked under, as ``check``'s
``--rules`` and ``--rules-file`` choose them.

An editor sends them in ``initializationOptions`` when it starts the server, and again
in ``workspace/didChangeConfiguration`` whenever the user changes them, either under
an ``allfours`` key or at the top level::

    {"allfours": {"rules": "english10", "rulesFile": "club.toml"}}

``rules`` (a profile name, as ``allfours rules`` lists them) replays every game under
that profile whatever its ``[Rules]`` tag says; ``rulesFile`` (a house-rules file, a
path absolute or relative to the workspace folder) is the profile of the games that
name none or name it as ``club:NAME``.  A setting that cannot be used is dropped, and
:attr:`RuleChoice.problems` says why (the server shows it to the user).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from ..checking import GivenRules
from ..diagnostics import Diagnostic
from ..frozen import frozen
from ..reading.records import Game
from ..referee.profiles import PROFILES, Options, Profile, profile_named, resolve_options

SECTION = "allfours"


@frozen
class RuleChoice:
    """The rules chosen by the settings (nothing chosen: each game's own)."""

    profile: str | None = None  # --rules
    house: Profile | None = None  # --rules-file, loaded
    house_file: str | None = None
    problems: tuple[str, ...] = ()

    def options(self, game: Game) -> tuple[Options, list[Diagnostic]]:
        """The rules ``game`` is checked under, and any problem naming them."""
        return resolve_options(game, profile=self.profile, house=self.house)

    def given(self) -> GivenRules:
        """The same as the one door takes them (:func:`..checking.check`)."""
        return (self.profile, {}, self.house)


NO_CHOICE = RuleChoice()


def rule_choice(settings: object, workspace: Path | None = None) -> RuleChoice:
    """The choice ``settings`` make (see the module's documentation)."""
    if not isinstance(settings, Mapping):
        return NO_CHOICE
    inner = settings.get(SECTION)
    values = inner if isinstance(inner, Mapping) else settings
    problems: list[str] = []
    profile = values.get("rules")
    if profile is not None and (not isinstance(profile, str) or not profile.strip()):
        profile = None
    elif profile is not None and profile_named(profile) is None and \
            not profile.strip().lower().startswith("club:"):
        problems.append(f"allfours.rules: unknown rule profile {profile!r}; the profiles are "
                        f"{', '.join(PROFILES)}; each game's own rules are used")
        profile = None
    house, house_file = None, values.get("rulesFile")
    if isinstance(house_file, str) and house_file.strip():
        house, problem = load_house(house_file, workspace)
        if problem is not None:
            problems.append(problem)
    else:
        house_file = None
    return RuleChoice(profile, house, house_file if house else None, tuple(problems))


def load_house(name: str, workspace: Path | None) -> tuple[Profile | None, str | None]:
    """The profile of a house-rules file, or why it cannot be used."""
    from ..referee.house import load_house_rules

    path = Path(name).expanduser()
    if not path.is_absolute() and workspace is not None:
        path = workspace / path
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) else "not UTF-8 text"
        return None, f"allfours.rulesFile: {name}: cannot be read ({reason or error})"
    loaded = load_house_rules(text, str(path))
    if loaded.profile is None:
        first = next((d for d in loaded.diagnostics if d.is_error), None)
        detail = f" ({first.line}:{first.column}: {first.message})" if first else ""
        return None, f"allfours.rulesFile: {name}: the house rules cannot be used{detail}"
    return loaded.profile, None
