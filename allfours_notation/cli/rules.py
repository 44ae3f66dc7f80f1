"""``allfours rules``: the rule profiles and their options, with sources.

Also the ``--rules NAME`` / ``--set OPTION=VALUE`` arguments that ``check`` and
``score`` share, and how they turn into the options of one game.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import fields

from rich.console import Console
from rich.markup import escape
from rich.table import Table

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

NAME = "rules"
HELP = "list the rule profiles and their options"
DESCRIPTION = f"""\
Without NAME: every rule profile with the value of each option.  With NAME: one
profile, each option with its allowed values and the source of the rule.

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
    parser.add_argument("--json", action="store_true", help="print the profiles as JSON")
    parser.add_argument("--file", metavar="CLUB.toml",
                        help="print the house rules of this TOML file (a base profile and "
                        "its changes, each with its source); errors are shown in the file")


def wide_console() -> Console:
    """The console; when piped, wide enough that tables never wrap."""
    out = console()
    if not out.is_terminal:
        out = Console(highlight=False, soft_wrap=True, width=max(out.width, 200))
    return out


def run(args: argparse.Namespace) -> int:
    out = wide_console()
    if args.file is not None:
        if args.name is not None:
            return fail("give NAME or --file, not both")
        house = load_house_file(args.file)
        if isinstance(house, int):
            return house
        if args.json:
            out.print_json(json.dumps({"default": DEFAULT_PROFILE,
                                       "profiles": [profile_json(house)]}))
        else:
            print_profile(out, house)
        return 0
    if args.name is not None and args.name.strip().lower() not in PROFILES:
        return fail(f"unknown rule profile {args.name!r}; the profiles are "
                    + ", ".join(PROFILES))
    chosen = [PROFILES[args.name.strip().lower()]] if args.name else list(PROFILES.values())
    if args.json:
        out.print_json(json.dumps({"default": DEFAULT_PROFILE,
                                   "profiles": [profile_json(p) for p in chosen]}))
        return 0
    if args.name:
        print_profile(out, chosen[0])
    else:
        print_all(out, chosen)
    return 0


def profile_json(profile: Profile) -> dict[str, object]:
    return {
        "name": profile.name,
        "description": profile.description,
        "options": {name: profile.options.describe(name) for name in OPTION_NAMES},
        "sources": dict(profile.sources),
    }


def print_all(out: object, profiles: list[Profile]) -> None:
    from rich.console import Console

    assert isinstance(out, Console)
    for profile in profiles:
        default = " (default)" if profile.name == DEFAULT_PROFILE else ""
        out.print(f"[bold]{profile.name}[/]{default}: {escape(profile.description)}")
    table = Table(box=None, pad_edge=False, show_edge=False)
    table.add_column("option", no_wrap=True)
    table.add_column("tag", no_wrap=True)
    for profile in profiles:
        table.add_column(profile.name, no_wrap=True)
    for name in OPTION_NAMES:
        values = [profile.options.describe(name) for profile in profiles]
        table.add_row(name, camel_case(name), *values)
    out.print()
    out.print(table)


def print_profile(out: object, profile: Profile) -> None:
    from rich.console import Console

    assert isinstance(out, Console)
    out.print(f"[bold]{profile.name}[/]: {escape(profile.description)}")
    for field in fields(Options):
        name = field.name
        out.print(f"  [bold]{name}[/] = {profile.options.describe(name)}   "
                  f"[dim](tag {camel_case(name)}; values "
                  f"{escape(choices_text(name).replace(', ', ' · '))})[/]")
        out.print(f"      {escape(profile.sources.get(name, ''))}")
        for (option, value), source in VALUE_SOURCES.items():
            if option == name:
                out.print(f"      [dim]{escape(value)}: {escape(source)}[/]")


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
    overrides: dict[str, str] = {}
    for item in args.set:
        key, sep, value = item.partition("=")
        if not sep:
            return f"--set {item!r}: write OPTION=VALUE, e.g. --set target=10"
        option = TAG_TO_OPTION.get(key.strip(), key.strip().lower().replace("-", "_"))
        if option not in OPTION_NAMES:
            return f"--set: unknown rule option {key!r}; the options are {', '.join(OPTION_NAMES)}"
        if parse_option_value(option, value) is None:
            return (f"--set {key}: {value!r} is not a value of {option}; the values are "
                    + choices_text(option))
        overrides[option] = value
    return (profile.strip().lower() if profile else None), overrides, house


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
    err = console(stderr=True)
    for diagnostic in house.diagnostics:
        err.print(escape(diagnostic.render(text)), markup=True)
    if house.profile is None:
        return fail(f"{name}: the house rules cannot be used (see above)")
    return house.profile
