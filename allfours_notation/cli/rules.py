"""``allfours rules``: the rule profiles and their options, with sources.

Also the ``--rules NAME`` / ``--set OPTION=VALUE`` arguments that ``check`` and
``score`` share, and how they turn into the options of one game.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Mapping
from dataclasses import fields
from types import MappingProxyType
from typing import TYPE_CHECKING

from ..diagnostics import Diagnostic
from ..reading.records import Game
from ..referee.profiles import (
    DEFAULT_PROFILE,
    OPTION_NAMES,
    PROFILES,
    TAG_TO_OPTION,
    VALUE_SOURCES,
    Options,
    Profile,
    camel_case,
    choices_text,
    parse_option_value,
    resolve_options,
)
from .inputs import console, fail

if TYPE_CHECKING:
    from rich.console import Console

NAME = "rules"
HELP = "list the rule profiles and their options"
DESCRIPTION = f"""\
Without NAME: every rule profile with the value of each option.  With NAME: one
profile, each option with its allowed values and the source of the rule.

A record is played by as many players as it names seats, and some options
follow that number (with three players a Game tie goes to the first of the tied
players from the elder, eldest_of_tied).  Both views end with what 2, 3 and 4
players change; --players N shows every option at a table of N, and --set
OPTION=VALUE (repeatable) an option changed as 'check' and 'score' change it.

A record picks its profile with [Rules "NAME"] (default {DEFAULT_PROFILE}) and
overrides single options with tags named after the option in CamelCase, e.g.
[Target "10"] or [GameTie "nobody"].  On the command line of 'check' and
'score', --rules NAME and --set OPTION=VALUE override the file.

A club's own rules live in a TOML file: a base profile, the options it changes
and where each change comes from (see "House rules" in docs/rules-options.md of
the source).  'rules --file club.toml' prints that profile; 'check' and 'score'
take it with --rules-file, for every game that names no profile or names it as
[Rules "club:NAME"].
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("name", nargs="?", metavar="NAME", help="a profile: "
                        + ", ".join(PROFILES))
    parser.add_argument("--players", type=int, choices=PLAYER_COUNTS, metavar="N",
                        help="the options at a table of N players (2, 3 or 4), as a record "
                        "naming N seats is played")
    parser.add_argument("--set", action="append", default=[], metavar="OPTION=VALUE",
                        help="change one rule option (repeatable), as for 'check' and "
                        "'score', e.g. --set game_tie=nobody")
    parser.add_argument("--json", action="store_true",
                        help="print the profiles as JSON (with 'by_players': every option "
                        "at a table of 2, 3 and 4)")
    parser.add_argument("--file", metavar="CLUB.toml",
                        help="print the house rules of this TOML file (a base profile and "
                        "its changes, each with its source); errors are shown in the file")


def wide_console() -> Console:
    """The console; when piped, wide enough that tables never wrap."""
    from rich.console import Console

    out = console()
    if not out.is_terminal:
        out = Console(highlight=False, soft_wrap=True, emoji=False, width=max(out.width, 200))
    return out


PLAYER_COUNTS = (2, 3, 4)


def run(args: argparse.Namespace) -> int:
    out = wide_console()
    overrides = parse_set(args.set)
    if isinstance(overrides, str):
        return fail(overrides)
    if args.players is not None:
        if "players" in overrides and int(overrides["players"]) != args.players:
            return fail("give the number of players once: --players or --set players")
        overrides["players"] = str(args.players)
    if args.file is not None:
        if args.name is not None:
            return fail("give NAME or --file, not both")
        house = load_house_file(args.file)
        if isinstance(house, int):
            return house
        chosen = [house]
    elif args.name is not None and args.name.strip().lower() not in PROFILES:
        return fail(f"unknown rule profile {args.name!r}; the profiles are "
                    + ", ".join(PROFILES))
    else:
        chosen = [PROFILES[args.name.strip().lower()]] if args.name else list(PROFILES.values())
    if args.json:
        out.print_json(json.dumps({"default": DEFAULT_PROFILE,
                                   "profiles": [profile_json(p, overrides) for p in chosen]}))
        return 0
    if args.name or args.file is not None:
        print_profile(out, chosen[0], overrides)
    else:
        print_all(out, chosen, overrides)
    return 0


def at_table(profile: Profile, overrides: Mapping[str, str]) -> Options:
    """``profile``'s options as a game is played under them: ``overrides`` (``--set``,
    ``--players``) on top, then what the number of players decides (``seated``): the
    same resolution as ``check`` and ``score`` make for a record naming no seats."""
    if profile.name in PROFILES and PROFILES[profile.name] is profile:
        options, _ = resolve_options(Game(), profile=profile.name, overrides=overrides)
    else:  # a club's house rules
        options, _ = resolve_options(Game(), overrides=overrides, house=profile)
    return options


def by_players(profile: Profile, overrides: Mapping[str, str]) -> dict[int, Options]:
    """The options at a table of 2, 3 and 4 players (``overrides`` on top)."""
    return {n: at_table(profile, {**overrides, "players": str(n)}) for n in PLAYER_COUNTS}


def player_changes(profile: Profile, overrides: Mapping[str, str]) -> dict[int, dict[str, str]]:
    """For each number of players, the options it changes besides ``players`` itself."""
    base = at_table(profile, overrides)
    found = {}
    for n, options in by_players(profile, overrides).items():
        changed = options.changes_from(base)
        changed.pop("players", None)
        found[n] = changed
    return found


def profile_json(profile: Profile, overrides: Mapping[str, str] = MappingProxyType({})
                 ) -> dict[str, object]:
    options = at_table(profile, overrides)
    return {
        "name": profile.name,
        "description": profile.description,
        "options": {name: options.describe(name) for name in OPTION_NAMES},
        "sources": dict(profile.sources),
        "by_players": {str(n): {name: seated.describe(name) for name in OPTION_NAMES}
                       for n, seated in by_players(profile, overrides).items()},
    }


def changes_text(changes: Mapping[str, str]) -> str:
    return ", ".join(f"{name} = {value}" for name, value in changes.items())


def print_all(out: object, profiles: list[Profile],
              overrides: Mapping[str, str] = MappingProxyType({})) -> None:
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    assert isinstance(out, Console)
    for profile in profiles:
        default = " (default)" if profile.name == DEFAULT_PROFILE else ""
        out.print(f"[bold]{profile.name}[/]{default}: {escape(profile.description)}")
    if overrides:
        out.print(f"[dim]with {escape(changes_text(overrides))}[/]")
    table = Table(box=None, pad_edge=False, show_edge=False)
    table.add_column("option", no_wrap=True)
    table.add_column("tag", no_wrap=True)
    for profile in profiles:
        table.add_column(profile.name, no_wrap=True)
    options = [at_table(profile, overrides) for profile in profiles]
    for name in OPTION_NAMES:
        table.add_row(name, camel_case(name), *(o.describe(name) for o in options))
    out.print()
    out.print(table)
    if "players" not in overrides:
        out.print()
        print_player_changes(out, {p.name: player_changes(p, overrides) for p in profiles})


def print_player_changes(out: object, changes: Mapping[str, dict[int, dict[str, str]]]) -> None:
    """What each number of players changes, profile by profile (a record is played by
    as many as it names seats)."""
    from rich.console import Console
    from rich.markup import escape

    assert isinstance(out, Console)
    out.print("The number of players follows the seats a record names; it changes (where no "
              "tag or --set gives the option):")
    for n in PLAYER_COUNTS:
        found: dict[str, list[str]] = {}
        for name, by_count in changes.items():
            text = changes_text(by_count[n])
            if text:
                found.setdefault(text, []).append(name)
        said = "; ".join(f"{text} ({', '.join(names)})" for text, names in found.items())
        out.print(f"  with {n} players: {escape(said) if said else 'nothing else'}")


def print_profile(out: object, profile: Profile,
                  overrides: Mapping[str, str] = MappingProxyType({})) -> None:
    from rich.console import Console
    from rich.markup import escape

    assert isinstance(out, Console)
    options = at_table(profile, overrides)
    out.print(f"[bold]{profile.name}[/]: {escape(profile.description)}")
    if overrides:
        out.print(f"[dim]with {escape(changes_text(overrides))}[/]")
    for field in fields(Options):
        name = field.name
        out.print(f"  [bold]{name}[/] = {options.describe(name)}   "
                  f"[dim](tag {camel_case(name)}; values "
                  f"{escape(choices_text(name).replace(', ', ' · '))})[/]")
        if options.describe(name) != profile.options.describe(name):
            why = "as asked" if name in overrides else f"with {options.players} players"
            out.print(f"      {why}; the profile says {profile.options.describe(name)}")
        out.print(f"      {escape(profile.sources.get(name, ''))}")
        for (option, value), source in VALUE_SOURCES.items():
            if option == name:
                out.print(f"      [dim]{escape(value)}: {escape(source)}[/]")
    if "players" not in overrides:
        out.print()
        print_player_changes(out, {profile.name: player_changes(profile, overrides)})


# --- shared by check and score ----------------------------------------------------------------


def add_rules_arguments(parser: argparse.ArgumentParser, *, house: bool = True) -> None:
    """--rules and --set; with ``house``, --rules-file too."""
    parser.add_argument("--rules", metavar="NAME",
                        help="play every game under this profile: " + ", ".join(PROFILES))
    if house:
        parser.add_argument("--rules-file", metavar="CLUB.toml",
                            help="house rules in a TOML file: the profile of every game that "
                            "names none or names it as [Rules \"club:NAME\"]")
    parser.add_argument("--set", action="append", default=[], metavar="OPTION=VALUE",
                        help="override one rule option (repeatable), e.g. --set target=10")


CommandRules = tuple[str | None, dict[str, str], Profile | None]


def rules_overrides(args: argparse.Namespace) -> CommandRules | int:
    """The profile, option overrides and house rules of the command line; or, when they
    cannot be used, the usage exit status after the problem was shown."""
    chosen = _command_rules(args)
    return fail(chosen) if isinstance(chosen, str) else chosen


def _command_rules(args: argparse.Namespace) -> CommandRules | str | int:
    """:func:`rules_overrides`, with a bad option given back as its message."""
    house: Profile | None = None
    if getattr(args, "rules_file", None) is not None:
        loaded = load_house_file(args.rules_file)
        if isinstance(loaded, int):
            return loaded
        house = loaded
    profile = args.rules
    known = profile is not None and (profile.strip().lower() in PROFILES or (
        house is not None and profile.strip().lower() == f"club:{house.name}"))
    if profile is not None and not known:
        return f"unknown rule profile {profile!r}; the profiles are {', '.join(PROFILES)}"
    overrides = parse_set(args.set)
    if isinstance(overrides, str):
        return overrides
    return (profile.strip().lower() if profile else None), overrides, house


def parse_set(items: list[str]) -> dict[str, str] | str:
    """``--set OPTION=VALUE`` arguments as ``{option: value}``; or the problem."""
    overrides: dict[str, str] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep:
            return f"--set {item!r}: write OPTION=VALUE, e.g. --set target=10"
        option = TAG_TO_OPTION.get(key.strip(), key.strip().lower().replace("-", "_"))
        if option not in OPTION_NAMES:
            return f"--set: unknown rule option {key!r}; the options are {', '.join(OPTION_NAMES)}"
        if parse_option_value(option, value) is None:
            return (f"--set {key}: {value!r} is not a value of {option}; the values are "
                    + choices_text(option))
        overrides[option] = value.strip()
    return overrides


def options_for(game: Game, profile: str | None, overrides: dict[str, str],
                house: Profile | None = None) -> tuple[Options, list[Diagnostic]]:
    return resolve_options(game, profile=profile, overrides=overrides, house=house)


def load_house_file(name: str) -> Profile | int:
    """The profile of a house-rules file; else its problems are printed with the
    file's lines (stderr) and the usage exit status is returned."""
    from ..referee.house import load_house_rules
    from .inputs import InputError, read_input

    try:
        data = read_input(name).data
    except InputError as error:
        return fail(str(error))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        return fail(f"{name}: not UTF-8 text (byte {error.start})")
    house = load_house_rules(text, name)
    from rich.markup import escape

    err = console(stderr=True)
    for diagnostic in house.diagnostics:
        err.print(escape(diagnostic.render(text)), markup=True)
    if house.profile is None:
        return fail(f"{name}: the house rules cannot be used (see above)")
    return house.profile
