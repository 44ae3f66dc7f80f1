"""The seeded AFN corpus, generated once per size and cached under ``bench/out/``.

Games come from the legal-game generator (``allfours_notation.generate``) when
the package has one, else from the hand-written stand-ins of
:mod:`bench.templates`.  The cache key holds the seed, the size and a digest of
the generating code, so a change to the generator makes a new file.
"""

from __future__ import annotations

import hashlib
import importlib
import inspect
import json
from dataclasses import asdict, dataclass
from pathlib import Path

from .templates import template_corpus

OUT_DIR = Path(__file__).resolve().parent / "out"


@dataclass(frozen=True)
class Corpus:
    """One corpus file and what it holds."""

    label: str
    path: Path
    bytes: int
    games: int
    deals: int
    source: str  # "generate" or "templates"

    def describe(self) -> dict[str, object]:
        data = asdict(self)
        data["path"] = self.path.name
        return data


def generator_source() -> str:
    """Which code makes the corpus: the package's generator when it exists."""
    return "templates"


def _code_digest(source: str) -> str:
    module = importlib.import_module(
        "allfours_notation.generate" if source == "generate" else "bench.templates"
    )
    return hashlib.sha256(inspect.getsource(module).encode("utf-8")).hexdigest()[:10]


def _generate(deals: int, seed: int, source: str) -> str:
    return template_corpus(deals, seed)[0]


def _count(path: Path) -> tuple[int, int]:
    """Games and deals, by the header scan."""
    from allfours_notation import scan_headers

    headers = scan_headers(path.read_text(encoding="utf-8"))
    return len(headers), sum(header.deals for header in headers)


def ensure_corpus(label: str, deals: int, seed: int, out_dir: Path = OUT_DIR) -> Corpus:
    """The corpus of about ``deals`` deals, from the cache or newly generated."""
    source = generator_source()
    out_dir.mkdir(parents=True, exist_ok=True)
    stem = f"afn-{deals}-s{seed}-{source}-{_code_digest(source)}"
    path = out_dir / f"{stem}.afn"
    meta = out_dir / f"{stem}.json"
    if path.exists() and meta.exists():
        facts = json.loads(meta.read_text(encoding="utf-8"))
        return Corpus(label, path, path.stat().st_size, facts["games"], facts["deals"], source)
    text = _generate(deals, seed, source)
    partial = path.with_suffix(".part")
    partial.write_text(text, encoding="utf-8")
    partial.replace(path)
    games, counted = _count(path)
    meta.write_text(json.dumps({"games": games, "deals": counted}), encoding="utf-8")
    return Corpus(label, path, path.stat().st_size, games, counted, source)
