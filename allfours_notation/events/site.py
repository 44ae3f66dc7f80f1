"""``allfours event site DIR``: the event's results as a static, offline, printable site.

Plain HTML pages and one stylesheet, no script and no network: an index (the event, its
standings with the tie-break chain, every match with its result, the byes, the prize list
and the ratings), a page per match (its sheet: per table the games, bullseyes, Hang Jacks,
running totals, half time, where a race ended, what did not count and why), a page per team
(its players, pairs and matches) and, unless asked not to, each game's own replay page (the
one ``allfours html`` writes), linked from its line of the sheet.  Tables scroll inside
their own box, so a page never overflows a phone's width; printing drops the navigation.

Every text a record or the event file wrote is escaped (:func:`html.escape`), and file names
are made from the page's kind and a number, never from a name someone typed.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from .assemble import Counted, MatchResult
from .replays import MadePage
from .report import EventReport, rule_text
from .standings import Bracket, Entrant, chain_text, entrant_text

STYLE = """\
:root { color-scheme: light dark; --line: #8884; --muted: #777; }
* { box-sizing: border-box; }
body { font: 16px/1.45 system-ui, sans-serif; margin: 0 auto; max-width: 60rem;
       padding: 0.75rem; overflow-wrap: anywhere; }
nav { display: flex; flex-wrap: wrap; gap: 0.4rem 1rem; padding: 0.5rem 0;
      border-bottom: 1px solid var(--line); }
h1 { font-size: 1.5rem; margin: 0.6rem 0; } h2 { font-size: 1.2rem; margin-top: 1.4rem; }
.muted { color: var(--muted); }
.scroll { overflow-x: auto; max-width: 100%; }
table { border-collapse: collapse; margin: 0.4rem 0; font-variant-numeric: tabular-nums;
        overflow-wrap: normal; }
th, td { padding: 0.25rem 0.5rem; border-bottom: 1px solid var(--line); text-align: left;
         vertical-align: top; }
td.n, th.n { text-align: right; white-space: nowrap; }
tr.void td { color: var(--muted); text-decoration: line-through; }
@media print {
  nav, .noprint { display: none; }
  body { max-width: none; padding: 0; color: #000; background: #fff; font-size: 11pt; }
  a { color: inherit; text-decoration: none; }
  .scroll { overflow: visible; }
  h2 { break-after: avoid; } table { break-inside: auto; } tr { break-inside: avoid; }
}
"""


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


class Site:
    """The pages of one event, by file name, made from its report."""

    def __init__(self, report: EventReport, *, replays: bool) -> None:
        self.report = report
        self.replays = replays
        self.pages: dict[str, str | None] = {"style.css": STYLE}
        self.match_pages = {id(m): f"match-{n}.html"
                            for n, m in enumerate(report.assembled.matches, 1)}
        self.team_pages = {t.name: f"team-{n}.html"
                           for n, t in enumerate(report.event.teams, 1)}
        self.replay_pages: dict[tuple[str, int], str] = {}
        self.file_names: dict[str, str] = {}  # a game file's name by its path (shown)
        # every pair that sat for a team: its games (match, table, number at the table,
        # the game, whether the team was at home), in the order of the matches
        self.pair_games: dict[tuple[str, tuple[str, ...]], list[PairGame]] = {}
        for match in report.assembled.matches:
            for table in match.tables:
                for number, game in enumerate(table.games, 1):
                    for home, team in ((True, match.home), (False, match.away)):
                        self.pair_games.setdefault((team, game.pair(home)), []).append(
                            (match, table.number, number, game, home))
        ordered = sorted(self.pair_games, key=lambda key: (
            self.team_pages.get(key[0], "~"), key[1]))
        self.pair_pages = {key: f"pair-{n}.html" for n, key in enumerate(ordered, 1)}

    # --- the frame ----------------------------------------------------------------------

    def page(self, name: str, title: str, body: Iterable[str]) -> None:
        event = self.report.event
        nav = ['<a href="index.html">Results</a>', '<a href="prizes.html">Prizes</a>',
               '<a href="ratings.html">Ratings</a>']
        self.pages[name] = "\n".join([
            "<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            f"<title>{_e(title)} · {_e(event.name)}</title>",
            '<link rel="stylesheet" href="style.css">', "</head>", "<body>",
            f"<nav>{' '.join(nav)}</nav>", f"<h1>{_e(title)}</h1>", *body,
            "</body>", "</html>", ""])

    @staticmethod
    def table(head: Sequence[str], rows: Iterable[Sequence[str]], *,
              numeric: Callable[[int], bool] = lambda _: False,
              classes: Sequence[str] = ()) -> str:
        """An HTML table in its scrolling box; cells are HTML already."""
        cells = "".join(f'<th class="n">{h}</th>' if numeric(i) else f"<th>{h}</th>"
                        for i, h in enumerate(head))
        lines = ['<div class="scroll"><table>', f"<thead><tr>{cells}</tr></thead><tbody>"]
        for index, row in enumerate(rows):
            css = f' class="{classes[index]}"' if index < len(classes) and classes[index] else ""
            lines.append(f"<tr{css}>" + "".join(
                f'<td class="n">{c}</td>' if numeric(i) else f"<td>{c}</td>"
                for i, c in enumerate(row)) + "</tr>")
        lines.append("</tbody></table></div>")
        return "\n".join(lines)

    def shown(self, game: Counted) -> str:
        """``name.afn:3``: the game's file by its name alone, and its number.  A file's
        name is worked out once (a ``Path`` made for each game's line of the match and
        pair pages was a fifth of the site's own pages, issue 38)."""
        file = game.game.file
        name = self.file_names.get(file)
        if name is None:
            name = self.file_names[file] = Path(file).name
        return f"{name}:{game.game.index}"

    def team_link(self, name: str) -> str:
        page = self.team_pages.get(name)
        return f'<a href="{page}">{_e(name)}</a>' if page else _e(name)

    # --- the pages ----------------------------------------------------------------------

    def build(self, replay_page: ReplayMaker | None) -> dict[str, str | None]:
        for match in self.report.assembled.matches:
            for table in match.tables:
                for game in table.games:
                    made = replay_page(game) if replay_page and self.replays else None
                    if made is not None:
                        name, page = made
                        self.shared_assets()
                        self.replay_pages[(game.game.file, game.game.index)] = name
                        self.pages[name] = page
        self.index()
        for match in self.report.assembled.matches:
            self.match(match)
        for team in self.report.event.teams:
            self.team(team.name)
        for key in self.pair_pages:
            self.pair(key)
        self.prizes()
        self.ratings()
        return self.pages

    def shared_assets(self) -> None:
        """The replay pages' stylesheet and script, once for all of them."""
        from ..writing.html_replay.page import ASSETS, asset

        for name in ASSETS:
            if name not in self.pages:
                self.pages[name] = asset(name)

    def index(self) -> None:
        event = self.report.event
        rules = event.house.name if event.house is not None else event.rules
        about = [x for x in (event.venue, ", ".join(event.dates)) if x]
        body = [f'<p class="muted">{_e(" · ".join([*about, f"rules {rules}"]))}<br>'
                f"{_e(rule_text(event))}; bullseye points: game {event.game_value}"
                + (f", Hang Jack {event.hang_jack_value}" if event.hang_jack_value else "")
                + "</p>", "<h2>Standings</h2>",
                f'<p class="muted">Ranked by {_e(chain_text(event.tiebreaks))}.</p>']
        for ranking in self.report.standings:
            body.append(f"<h3>{_e(ranking.title)}</h3>")
            body.append(self.table(
                ["#", "Team", "P", "W", "D", "L", "Bye", "BF", "BA", "HJ", "HJA", "Decided by"],
                ([str(n), self.team_link(r.team), *(str(x) for x in (
                    r.played, r.wins, r.draws, r.losses, r.byes, r.bullseyes_for,
                    r.bullseyes_against, r.hang_jacks, r.hang_jacks_against)),
                  _e(r.decided_by or "")] for n, r in enumerate(ranking.rows, 1)),
                numeric=lambda i: i == 0 or 2 <= i <= 10))
        if self.report.bracket is not None:
            seeded = self.report.bracket
            body.append(f"<h2>Knock-out</h2><p class=\"muted\">Seeded from "
                        f"{_e(seeded.source)}.</p>")
            body.append(self.table(["Seed", "Team", "Seed", "Team"], (
                [str(seed), self.team_link(team) if team else "—", str(other_seed),
                 self.team_link(other) if other else ("a bye" if team else "—")]
                for (seed, team), (other_seed, other) in seeded.pairs),
                numeric=lambda i: i in (0, 2)))
            if any(name for name, _ in seeded.rounds):
                body.extend(self.knockout_rounds(seeded))
        body.append("<h2>Matches</h2>")
        body.append(self.table(
            ["Round", "Match", "Bullseyes", "Hang Jacks", "Result"],
            ([_e(m.round), f'<a href="{self.match_pages[id(m)]}">{_e(m.home)} v '
              f"{_e(m.away)}</a>", f"{m.home_points}–{m.away_points}",
              f"{m.home_hang_jacks}–{m.away_hang_jacks}", _e(_outcome(m))]
             for m in self.report.assembled.matches)))
        if self.report.assembled.byes:
            body.append("<h2>Byes</h2><ul>" + "".join(
                f"<li>Round {_e(r)}: {self.team_link(t)}</li>"
                for r, t in self.report.assembled.byes) + "</ul>")
        if self.report.assembled.unplaced:
            body.append("<h2>Games no match could take</h2><ul>" + "".join(
                f"<li>{_e(g.where)}</li>" for g in self.report.assembled.unplaced) + "</ul>")
        self.page("index.html", event.name, body)

    def knockout_rounds(self, seeded: Bracket) -> list[str]:
        """The knock-out round by round: each tie, its match's result and who went on."""
        match_pages = {(m.round, m.home, m.away): page for m in self.report.assembled.matches
                       if (page := self.match_pages.get(id(m)))}
        body = []
        for name, ties in seeded.rounds:
            body.append(f"<h3>{_e(name or 'A round the event file does not name')}</h3>")
            rows = []
            for tie in ties:
                one, two = (self.entrant(e) for e in tie.entrants)
                m = tie.match
                page = match_pages.get((m.round, m.home, m.away)) if m else None
                result = (f'<a href="{page}">{_e(tie.outcome)}</a>' if page
                          else _e(tie.outcome))
                rows.append([one, two, result])
            body.append(self.table(["Team", "Team", "Result"], rows))
        champion = seeded.champion
        if champion is not None and champion[1] is not None:
            body.append(f"<p>Winner: <strong>{self.team_link(champion[1])}</strong></p>")
        return body

    def entrant(self, entrant: Entrant) -> str:
        seed, team = entrant
        return (f"{seed} " if seed is not None else "") + self.team_link(team) if team \
            else _e(entrant_text(entrant))

    def match(self, match: MatchResult) -> None:
        event = self.report.event
        body = [f"<p>{self.team_link(match.home)} {match.home_points} – {match.away_points} "
                f"{self.team_link(match.away)}; Hang Jacks {match.home_hang_jacks}/"
                f"{match.away_hang_jacks}; {_e(_outcome(match))}</p>"]
        if event.half_time:
            h = match.half(event.half_time)
            body.append(f"<p>Half time (after {event.half_time} games a table): "
                        f"{_e(match.home)} {h[0]} / {_e(match.away)} {h[1]}, "
                        f"Hang Jacks {h[2]}/{h[3]}</p>")
        for late in match.lateness:
            other = match.away if late.team == match.home else match.home
            body.append(f"<p>Forfeit: {_e(late.text(other))}</p>")
        if match.missing:
            body.append(f"<p>Not reported: table{'s' if len(match.missing) > 1 else ''} "
                        f"{', '.join(map(str, match.missing))}</p>")
        for table in match.tables:
            first = table.games[0] if table.games else None
            pairs = (f"{_e(' & '.join(first.pair(True)))} v {_e(' & '.join(first.pair(False)))}"
                     if first else "")
            body.append(f"<h2>Table {table.number}</h2><p>{pairs}</p>")
            rows, classes = [], []
            for number, game in enumerate(table.games, 1):
                scores = dict(game.game.scores)
                away_side = "EW" if game.home_side == "NS" else "NS"
                replay = self.replay_pages.get((game.game.file, game.game.index))
                shown = self.shown(game)
                where = f'<a href="{replay}">{_e(shown)}</a>' if replay else _e(shown)
                notes = [x for x in (game.forfeit and f"forfeit: {game.forfeit}",
                                     game.game.disputes and f"{game.game.disputes} disputed",
                                     game.why_not and f"not counted: {game.why_not}") if x]
                winner = ("" if game.winner_home is None else
                          match.home if game.winner_home else match.away)
                rows.append([str(number), f"{scores.get(game.home_side, 0)}–"
                             f"{scores.get(away_side, 0)}", _e(winner),
                             f"{game.home_points}–{game.away_points}",
                             f"{game.home_hang_jacks}–{game.away_hang_jacks}",
                             _e("; ".join(str(n) for n in notes)), where])
                classes.append("" if game.counts else "void")
            body.append(self.table(["Game", "Score", "Won by", "Bullseyes", "HJ", "Notes",
                                    "Record"], rows, numeric=lambda i: i in (0, 1, 3, 4),
                                   classes=classes))
        self.page(self.match_pages[id(match)],
                  f"Round {match.round}: {match.home} v {match.away}", body)

    def team(self, name: str) -> None:
        team = self.report.event.team(name)
        assert team is not None
        body = [f'<p class="muted">Division {_e(team.division)}</p>', "<h2>Players</h2>",
                "<p>" + ", ".join(_e(p) for p in team.players) + "</p>"]
        if team.substitutes:
            body.append("<p>Substitutes: " + ", ".join(_e(p) for p in team.substitutes)
                        + "</p>")
        rows = []
        for match in self.report.assembled.matches:
            if name not in (match.home, match.away):
                continue
            rows.append([_e(match.round), f'<a href="{self.match_pages[id(match)]}">'
                         f"{_e(match.home)} v {_e(match.away)}</a>",
                         f"{match.home_points}–{match.away_points}", _e(_outcome(match))])
        body.append("<h2>Matches</h2>")
        body.append(self.table(["Round", "Match", "Bullseyes", "Result"], rows))
        body.append("<h2>Pairs</h2>")
        pairs = sorted(pair for team_name, pair in self.pair_games if team_name == name)
        body.append(self.table(["Pair", "Games", "Bullseyes"], (
            [f'<a href="{self.pair_pages[(name, pair)]}">{_e(" & ".join(pair))}</a>',
             str(len(played)), str(_won(played))]
            for pair in pairs for played in [self.pair_games[(name, pair)]]),
            numeric=lambda i: i > 0))
        self.page(self.team_pages[name], name, body)

    def pair(self, key: tuple[str, tuple[str, ...]]) -> None:
        """A pair's page: its games, match by match, table by table, each with its record."""
        team, pair = key
        played = self.pair_games[key]
        body = [f"<p>{self.team_link(team)} · {len(played)} games, {_won(played)} bullseyes "
                "(games won that count)</p>"]
        rows, classes = [], []
        for match, table, number, game, home in played:
            scores = dict(game.game.scores)
            away_side = "EW" if game.home_side == "NS" else "NS"
            own, other = ((scores.get(game.home_side, 0), scores.get(away_side, 0)) if home
                          else (scores.get(away_side, 0), scores.get(game.home_side, 0)))
            opponents = game.pair(not home)
            result = ("" if game.winner_home is None else
                      "won" if game.winner_home is home else "lost")
            replay = self.replay_pages.get((game.game.file, game.game.index))
            shown = self.shown(game)
            rows.append([f'<a href="{self.match_pages[id(match)]}">Round {_e(match.round)}: '
                         f"{_e(match.home)} v {_e(match.away)}</a>", str(table), str(number),
                         _e(" & ".join(opponents)), f"{own}–{other}", _e(result),
                         f'<a href="{replay}">{_e(shown)}</a>' if replay else _e(shown)])
            classes.append("" if game.counts else "void")
        body.append(self.table(["Match", "Table", "Game", "Against", "Score", "Result",
                                "Record"], rows, numeric=lambda i: i in (1, 2, 4),
                               classes=classes))
        self.page(self.pair_pages[key], " & ".join(pair), body)

    def prizes(self) -> None:
        body = []
        for award in self.report.prizes:
            body.append(f"<h2>{_e(award.prize.name)}</h2>")
            if award.undecidable:
                body.append(f"<p>Undecidable from these records: {_e(award.undecidable)}</p>")
            elif award.winner is None:
                body.append(f"<p>Not awarded ({_e(award.note or '')})</p>")
            else:
                figure = f" ({award.figure})" if award.figure is not None else ""
                note = f" <span class=\"muted\">({_e(award.note)})</span>" if award.note else ""
                body.append(f"<p><strong>{_e(award.winner)}</strong>{figure}{note}</p>")
            if award.evidence:
                body.append(self.table(
                    ["Round", "Match", "Table", "Pair", "Game", "Deal", "Time"],
                    ([_e(e.round), _e(e.match), str(e.table),
                      f"{_e(' & '.join(e.pair))} ({_e(e.team)})", _e(e.game or ""),
                      "" if e.deal is None else str(e.deal), _e(e.time or "")]
                     for e in award.evidence)))
        if not self.report.prizes:
            body.append("<p>The event file names no prizes.</p>")
        self.page("prizes.html", "Prizes", body)

    def ratings(self) -> None:
        from .ratings import rate

        rated = rate(self.report.event, self.report.assembled)
        body = [f'<p class="muted">openskill (Plackett–Luce) over {rated.games} games, in the '
                "order played; ordinal = mean − 3 × uncertainty.</p>"]
        for title, rows in (("Players", rated.players), ("Partnerships", rated.pairs)):
            body.append(f"<h2>{title}</h2>")
            body.append(self.table(
                ["#", "Name", "Team", "Games", "Won", "Mean", "Uncertainty", "Ordinal"],
                ([str(n), _e(r.name), self.team_link(r.team), str(r.games), str(r.wins),
                  f"{r.mean:.2f}", f"{r.uncertainty:.2f}", f"{r.ordinal:.2f}"]
                 for n, r in enumerate(rows, 1)), numeric=lambda i: i not in (1, 2)))
        self.page("ratings.html", "Ratings", body)


# A game a pair played: its match, table, place at the table, the game, the pair at home.
PairGame = tuple[MatchResult, int, int, Counted, bool]


def _won(played: Iterable[PairGame]) -> int:
    """The bullseyes a pair took: its games won that count."""
    return sum(1 for _, _, _, game, home in played if game.winner_home is home and game.counts)


def _outcome(match: MatchResult) -> str:
    if match.finished and match.winner is None:
        return "drawn"
    text = f"{match.winner} wins" if match.winner and match.finished else "not over"
    return text + (f" (the race ended at {match.ended_at})" if match.ended_at else "")


# A game → its replay page's name and the page (None: a page of that name is there already,
# and its name says it is this game's: it is kept), or None when the game cannot be replayed.
ReplayMaker = Callable[[Counted], "tuple[str, str | None] | None"]


def replay_pages(report: EventReport, root: Path | None = None,
                 existing: Callable[[str], bool] | None = None, *,
                 advice_samples: int | None = None,
                 premade: Sequence[MadePage] = ()) -> ReplayMaker:
    """What makes each game's replay page: the game read again from its file (found from
    ``root`` when its name is relative), replayed, and written as ``allfours html`` does.
    A page is named by the digest of the game's text and the event's rules, so that a site
    built again renders only the games that changed (``existing`` says which names the
    site's folder holds already).  ``advice_samples``: each call advised as ``allfours html
    --advice`` does, with that many sampled deals (part of the page's digest).
    ``premade``: the pages the reading of the folder made already (its ``pages``), used
    where the file still holds the text they were made from, with the same rules and
    advice (:func:`.replays.source_key`), or else where their names are the ones the
    site would give."""
    from ..checking import changes_of
    from ..checking.parsing import parse_indexed
    from ..collector import cyclic_gc_paused
    from ..reading.headers import GameHeader, scan_headers
    from .replays import page_name, record_of, render, source_key

    ready = {(page.file, page.index): page for page in premade}
    texts: dict[str, str] = {}
    # each file's games by index, scanned once (a table's file holds all its games), and
    # only for a file whose pages were not all made while the folder was read
    headers: dict[str, dict[int, GameHeader]] = {}
    # whether the file holds the text its premade pages were made from, with these rules
    premade_fits: dict[str, bool] = {}

    def make(game: Counted) -> tuple[str, str | None] | None:
        # a replay page makes some 100,000 records and the pages and the event's facts
        # pile up: the cycle collector, walking all of them again and again, found
        # nothing to free (the records hold no cycles) and took a third of a whole site's
        # time (5,000 games); reference counting frees a game's records as usual
        with cyclic_gc_paused():
            return made(game)

    def made(game: Counted) -> tuple[str, str | None] | None:
        file = game.game.file
        if file not in texts:
            path = Path(file) if root is None else root / file
            try:
                texts[file] = path.read_text(encoding="utf-8", errors="replace")
            except OSError:
                texts[file] = ""
        text = texts[file]
        kept = ready.pop((file, game.game.index), None)
        if kept is not None:
            if file not in premade_fits:
                premade_fits[file] = kept.source == source_key(
                    text, report.event.given_rules, advice_samples)
            if premade_fits[file]:  # made from this very text: its name is the site's
                if existing is not None and existing(kept.name):
                    return kept.name, None
                return kept.name, kept.html
        if file not in headers:
            by_index = headers[file] = {}
            for scanned in scan_headers(text):
                by_index.setdefault(scanned.index, scanned)
        header = headers[file].get(game.game.index)
        if header is None:
            return None
        record = record_of(text, header)
        name = page_name(report.event.given_rules, file, record, advice_samples)
        if existing is not None and existing(name):
            return name, None
        if kept is not None and kept.name == name:
            return name, kept.html  # made from the reading's own replay (read_folder)
        parsed = parse_indexed(text, header, filename=file)
        if parsed.broken:
            return None
        # each step as what it changed, not the whole table (issue 38)
        refereed = changes_of(parsed, report.event.given_rules)
        if refereed is None:
            return None
        replayed, changes = refereed
        return name, render(parsed, replayed, changes, record, file, advice_samples)

    return make


def site_pages(report: EventReport, *, replays: bool = True, root: Path | None = None,
               existing: Callable[[str], bool] | None = None,
               advice_samples: int | None = None,
               premade: Sequence[MadePage] = ()) -> dict[str, str | None]:
    """Every page of the site by file name (``style.css`` among them); a replay page that
    ``existing`` says is there already (and unchanged: its name is its digest) is None."""
    return Site(report, replays=replays).build(
        replay_pages(report, root, existing, advice_samples=advice_samples,
                     premade=premade)
        if replays
        else None)
