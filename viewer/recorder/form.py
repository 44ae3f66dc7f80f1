"""The start form of a new game: event, site, date, rules, the players by seat."""

from __future__ import annotations

from typing import ClassVar

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Input, Label, RadioButton, RadioSet, Static
from textual.widgets.input import Selection

from allfours_notation.reading.records import Game, Tag
from allfours_notation.reading.table import SEATS_FOR_PLAYERS
from allfours_notation.recording.opening import new_tags, today
from allfours_notation.referee.profiles import PROFILES, Profile, resolve_options
from allfours_notation.referee.start import starting_scores

from ..widgets.footer import KeyFooter

_DATE_PARTS = (4, 2, 2)
SEAT_TAGS = tuple(seat.tag_name for seat in SEATS_FOR_PLAYERS[4])


def date_problem(text: str) -> str | None:
    """Why ``text`` is not a ``YYYY.MM.DD`` date (``??`` for unknown parts), or ``None``."""
    parts = text.split(".")
    if len(parts) != 3 or any(
            not (part.isdigit() or set(part) == {"?"}) or len(part) != size
            for part, size in zip(parts, _DATE_PARTS, strict=True)):
        return "the date is YYYY.MM.DD (?? for an unknown part)"
    return None


class FormField(Input):
    """A field of the start form.  Its keys are not its own: the form takes every key in
    the order the keys came and edits the field it has reached (see
    :meth:`StartForm.route`), so that typing at any speed lands in the right field."""

    def __init__(self, value: str, *, id: str) -> None:
        # the form selects a proposed value itself when it reaches the field, at once;
        # Input's own select-on-focus came later and let the next key replace the keys
        # typed ahead into it ('Diego Martin' became 'rtin')
        super().__init__(value, id=id, compact=True, select_on_focus=False)

    def _forward_event(self, event: events.Event) -> None:
        if isinstance(event, (events.Key, events.Paste)) and isinstance(self.screen, StartForm):
            self.screen.route(event)
            return
        super()._forward_event(event)

    def on_mouse_down(self) -> None:
        """A click chooses the field the next keys go to."""
        if isinstance(self.screen, StartForm):
            self.screen.reach(self)

    def take_key(self, event: events.Key) -> None:
        """Edit the value by ``event`` now (not when the field's own queue gets to it)."""
        if event.is_printable and event.character is not None:
            start, end = self.selection
            self.replace(event.character, min(start, end), max(start, end))
            return
        for binding in self._bindings.key_to_bindings.get(event.key, ()):
            name, _, arguments = binding.action.partition("(")
            method = getattr(self, f"action_{name}", None)
            if method is not None and not name.startswith("submit"):
                flags = [part.strip() == "True" for part in arguments.rstrip(")").split(",")
                         if part.strip()]
                method(*flags)
                return

    def take_paste(self, text: str) -> None:
        start, end = self.selection
        self.replace(text.splitlines()[0] if text else "", min(start, end), max(start, end))


class ModeChoice(RadioSet):
    """Cards or results: how the game's deals are entered (c or r, or ←/→)."""

    MODES = ("cards", "results")

    def __init__(self, mode: str, *, id: str) -> None:
        self.mode = mode if mode in self.MODES else "cards"
        super().__init__(*(RadioButton(name, value=name == self.mode) for name in self.MODES),
                         id=id, compact=True)

    def _forward_event(self, event: events.Event) -> None:
        if isinstance(event, (events.Key, events.Paste)) and isinstance(self.screen, StartForm):
            self.screen.route(event)
            return
        super()._forward_event(event)

    def choose(self, mode: str) -> None:
        self.mode = mode
        for button in self.query(RadioButton):
            button.value = str(button.label) == mode

    def take_key(self, event: events.Key) -> None:
        char = (event.character or "").lower()
        if char in ("c", "r"):
            self.choose("cards" if char == "c" else "results")
        elif event.key in ("left", "right", "up", "down", "space"):
            self.choose(self.MODES[1 - self.MODES.index(self.mode)])

    def on_radio_set_changed(self, event: RadioSet.Changed) -> None:
        self.mode = str(event.pressed.label)


# What the line under the form's head says about the field being filled in.
_HINTS = {
    "Event": "the event or occasion (any text; may stay empty)",
    "Site": "where it is played (any text; may stay empty)",
    "Date": "YYYY.MM.DD (?? for an unknown part)",
    "Entry": "deals entered by their cards or by their results: c or r (or ←/→); Ctrl+T "
             "switches during the game",
    "Score": "a starting score if the game is taken up part-way (N 12 S 13); empty: 0",
}


class StartForm(Screen[tuple[Tag, ...]]):
    """Asks for the tags of a new game; Enter moves on, Enter on the last field starts.

    Every key is taken by the form, in the order the keys came, for the field it has
    reached: Enter (or Tab) moves on at once, whatever the focus is still doing, so
    the keys typed after it go to the next field however fast they come."""

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
        self.at = 0  # the field the next key goes to, among those shown

    def fields(self) -> list[tuple[str, str, str]]:
        """(id, label, value) of every field of this table, in order."""
        return [row for row in self.all_fields()
                if row[0] not in SEAT_TAGS or row[0] in self.seat_tags()]

    def all_fields(self) -> list[tuple[str, str, str]]:
        """(id, label, value) of every field, every seat's among them."""
        given = self.proposed
        rows = [("Event", "Event", given.get("Event", "")),
                ("Site", "Site", given.get("Site", "")),
                ("Date", "Date", given.get("Date", today())),
                ("Rules", "Rules", given.get("Rules", self.rules))]
        rows.extend((tag, tag, given.get(tag, "")) for tag in SEAT_TAGS)
        rows.append(("Entry", "Deals by", given.get("Entry", "cards")))
        rows.append(("Score", "Score", ""))
        return rows

    def seat_tags(self) -> list[str]:
        return [seat.tag_name for seat in SEATS_FOR_PLAYERS[self.players]]

    def rule_names(self) -> list[str]:
        """The profiles, and the club's rules when a house-rules file was given."""
        return [*PROFILES, *([f"club:{self.house.name}"] if self.house else [])]

    def compose(self) -> ComposeResult:
        with Vertical(id="form"):
            yield Static("", id="form-head")
            for field_id, label, value in self.all_fields():
                with Horizontal(classes="form-row", id=f"row-{field_id}"):
                    yield Label(label, classes="form-label")
                    if field_id == "Entry":
                        yield ModeChoice(value.lower(), id="field-Entry")
                    else:
                        yield FormField(value, id=f"field-{field_id}")
            yield Static("", id="form-hint")
            yield Static("", id="form-problem")
        yield KeyFooter(compact=True)

    def on_mount(self) -> None:
        self.seat()
        self.reach_at(0)

    def shown_fields(self) -> list[FormField | ModeChoice]:
        return [self.query_one(f"#field-{field_id}", FormField | ModeChoice)  # type: ignore[arg-type]
                for field_id, _, _ in self.fields()]

    def seat(self) -> None:
        """Show a field for each seat of the table, the head saying how many."""
        for tag in SEAT_TAGS:
            self.query_one(f"#row-{tag}").display = tag in self.seat_tags()
        self.query_one("#form-head", Static).update(
            f"New game, {self.players} players (the rules' table; --players chooses "
            "another). Enter moves on; Enter on the last field (or Ctrl+S) starts.")

    def reach(self, field: FormField | ModeChoice) -> None:
        fields = self.shown_fields()
        if field in fields:
            self.reach_at(fields.index(field))

    def reach_at(self, position: int) -> None:
        """The next keys go to field ``position``: its proposed value selected, so that
        what is typed replaces it; the focus follows (later: the keys need not wait)."""
        fields = self.shown_fields()
        self.at = max(0, min(position, len(fields) - 1))
        field = fields[self.at]
        if isinstance(field, FormField):
            field.selection = Selection(0, len(field.value))
        field.focus()
        field_id = (field.id or "").removeprefix("field-")
        hint = _HINTS.get(field_id, "")
        if field_id == "Rules":
            hint = "one of " + ", ".join(self.rule_names())
        elif field_id in SEAT_TAGS:
            hint = f"the {field_id} player's name (empty: {field_id})"
        self.query_one("#form-hint", Static).update(hint)

    def route(self, event: events.Key | events.Paste) -> None:
        """Every key of the form, in the order it came: Enter and Tab move on, Ctrl+S
        starts, Esc quits, anything else edits the field reached."""
        fields = self.shown_fields()
        field = fields[self.at]
        if isinstance(event, events.Paste):
            if isinstance(field, FormField):
                field.take_paste(event.text)
            return
        if event.key in ("enter", "tab"):
            self.rules_chosen()
            if event.key == "enter" and self.at + 1 >= len(fields):
                self.action_start()
            else:
                self.reach_at(self.at + 1)
        elif event.key == "shift+tab":
            self.reach_at(self.at - 1)
        elif event.key == "ctrl+s":
            self.action_start()
        elif event.key == "escape":
            self.app.exit(0)
        else:
            field.take_key(event)

    def rules_chosen(self) -> None:
        """Rules chosen: the profile's table is seated (four for trinidad14), what was
        typed kept.  ``--players`` given on the command line is the explicit choice."""
        if self.players_given:
            return
        rules = self.query_one("#field-Rules", FormField).value.strip().lower()
        profile = PROFILES.get(rules)
        if profile is not None and profile.options.players != self.players:
            self.players = profile.options.players
            self.seat()

    def action_start(self) -> None:
        values = {field_id: self.query_one(f"#field-{field_id}", FormField).value.strip()
                  for field_id, _, _ in self.fields() if field_id != "Entry"}
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
        entry = self.query_one("#field-Entry", ModeChoice).mode
        if entry == "results":
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
