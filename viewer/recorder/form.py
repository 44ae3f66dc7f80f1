"""The start form of a new game: event, site, date, rules, the players by seat."""

from __future__ import annotations

from itertools import pairwise
from typing import ClassVar

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Input, Label, Static

from allfours_notation.reading.records import Game, Tag
from allfours_notation.reading.table import SEATS_FOR_PLAYERS
from allfours_notation.recording.opening import new_tags, today
from allfours_notation.referee.profiles import PROFILES, Profile, resolve_options
from allfours_notation.referee.start import starting_scores

from ..widgets.footer import KeyFooter

_DATE_PARTS = (4, 2, 2)


def date_problem(text: str) -> str | None:
    """Why ``text`` is not a ``YYYY.MM.DD`` date (``??`` for unknown parts), or ``None``."""
    parts = text.split(".")
    if len(parts) != 3 or any(
            not (part.isdigit() or set(part) == {"?"}) or len(part) != size
            for part, size in zip(parts, _DATE_PARTS, strict=True)):
        return "the date is YYYY.MM.DD (?? for an unknown part)"
    return None


class FormField(Input):
    """A field of the start form.  Enter moves on at once, in the order the keys came:
    the keys typed ahead of the move (a fast typist, a script, a paste) go on to the
    next field instead of joining this one."""

    def __init__(self, value: str, *, id: str) -> None:
        super().__init__(value, id=id, compact=True)
        self.next_field: FormField | None = None
        self.ahead: FormField | None = None  # after Enter: where the keys typed ahead go

    def on_focus(self) -> None:
        self.ahead = None

    async def _on_key(self, event: events.Key) -> None:
        if self.ahead is not None:
            event.stop()
            event.prevent_default()
            self.ahead.post_message(events.Key(event.key, event.character))
            return
        if event.key == "enter" and self.next_field is not None:
            event.stop()
            event.prevent_default()
            self.ahead = self.next_field
            self.post_message(self.Submitted(self, self.value, None))
            return
        await super()._on_key(event)


class StartForm(Screen[tuple[Tag, ...]]):
    """Asks for the tags of a new game; Enter moves on, Enter on the last field starts."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "start", "Start", tooltip="Start recording with these tags"),
        Binding("escape", "app.quit", "Quit", tooltip="Quit without recording"),
    ]

    def __init__(self, *, players: int, rules: str, overrides: dict[str, str],
                 proposed: tuple[Tag, ...] = (), house: Profile | None = None,
                 players_given: bool = False) -> None:
        super().__init__()
        self.players = players
        self.players_given = players_given  # --players: the table stays as asked
        self.rules = rules
        self.overrides = overrides
        self.house = house  # a club's rules (--rules-file), chosen as club:NAME
        self.proposed = {tag.name: tag.value for tag in proposed}

    def fields(self) -> list[tuple[str, str, str]]:
        """(id, label, value) of every field, in order."""
        given = self.proposed
        rows = [("Event", "Event", given.get("Event", "")),
                ("Site", "Site", given.get("Site", "")),
                ("Date", "Date", given.get("Date", today())),
                ("Rules", "Rules (" + ", ".join(self.rule_names()) + ")",
                 given.get("Rules", self.rules))]
        for seat in SEATS_FOR_PLAYERS[self.players]:
            rows.append((seat.tag_name, f"{seat.tag_name} player", given.get(seat.tag_name, "")))
        rows.append(("Entry", "Deals entered by their cards or their results (cards, results; "
                     "Ctrl+T switches later)", given.get("Entry", "cards")))
        rows.append(("Score", "Starting score if taken up part-way (N 12 S 13; empty: 0)",
                     ""))
        return rows

    def rule_names(self) -> list[str]:
        """The profiles, and the club's rules when a house-rules file was given."""
        return [*PROFILES, *([f"club:{self.house.name}"] if self.house else [])]

    def compose(self) -> ComposeResult:
        with Vertical(id="form"):
            yield Static(f"New game, {self.players} players (the rules' table; --players "
                         "chooses another): the tags of the record. Enter "
                         "moves on; Enter on the last field (or Ctrl+S) starts.", id="form-head")
            for field_id, label, value in self.fields():
                yield Label(label, classes="form-label")
                yield FormField(value, id=f"field-{field_id}")
            yield Static("", id="form-problem")
        yield KeyFooter(compact=True)

    def on_mount(self) -> None:
        fields = list(self.query(FormField))
        for field, following in pairwise(fields):
            field.next_field = following
        fields[0].focus()

    async def on_input_changed(self, event: Input.Changed) -> None:
        """Rules chosen: the profile's table is seated (four for trinidad14), what was
        typed kept.  ``--players`` given on the command line is the explicit choice."""
        if event.input.id != "field-Rules" or self.players_given:
            return
        profile = PROFILES.get(event.value.strip().lower())
        if profile is None or profile.options.players == self.players:
            return
        typed = {field.id.removeprefix("field-"): field.value
                 for field in self.query(FormField) if field.id}
        self.proposed.update({name: value for name, value in typed.items() if value})
        self.players = profile.options.players
        await self.recompose()
        self.on_mount()
        rules = self.query_one("#field-Rules", FormField)
        rules.focus()
        rules.cursor_position = len(rules.value)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        inputs = list(self.query(Input))
        position = inputs.index(event.input)
        if position + 1 < len(inputs):
            inputs[position + 1].focus()
        else:
            self.action_start()

    def action_start(self) -> None:
        values = {field_id: self.query_one(f"#field-{field_id}", Input).value.strip()
                  for field_id, _, _ in self.fields()}
        problem = date_problem(values["Date"])
        rules = values["Rules"].lower()
        if rules not in self.rule_names():
            problem = (f"unknown rules {values['Rules']!r}; choose one of "
                       + ", ".join(self.rule_names()))
        players = {seat.tag_name: values[seat.tag_name] or seat.tag_name
                   for seat in SEATS_FOR_PLAYERS[self.players]}
        tags = new_tags(event=values["Event"], site=values["Site"], date=values["Date"],
                        rules=rules, players=players, overrides=self.overrides,
                        score=values["Score"])
        entry = values["Entry"].lower() or "cards"
        if entry not in ("cards", "results"):
            problem = "deals are entered by their 'cards' or their 'results'"
        elif entry == "results":
            tags = (*tags, Tag(name="Entry", value="results"))
        if problem is None:
            problem = self.score_problem(tags)
        if problem is not None:
            self.query_one("#form-problem", Static).update(problem)
            return
        self.dismiss(tags)

    def score_problem(self, tags: tuple[Tag, ...]) -> str | None:
        """Why the starting score cannot be used (the referee's AFN505 words), or ``None``."""
        game = Game(tags=tags)
        options, _ = resolve_options(game, house=self.house)
        _, problems = starting_scores(game, game.seats, options)
        return problems[0].message if problems else None
