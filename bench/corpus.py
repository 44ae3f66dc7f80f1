"""The seeded AFN corpus, generated once per size and cached under ``bench/out/``.

Games come from the package's legal-game generator (see :mod:`bench.generated`).
The cache key holds the seed, the size and a digest of the generating code, so a
change to the generator makes a new file.
"""

from __future__ import annotations

import hashlib
import importlib
import inspect
import json
from dataclasses import asdict, dataclass
from pathlib import Path

from .generated import generated_corpus

OUT_DIR = Path(__file__).resolve().parent / "out"
DEFAULT_SEED = 20261120  # the benchmark's corpus seed (bench.run's Config, bench.stages)
_GENERATING_CODE = ("bench.generated", "allfours_notation.generate")


@dataclass(frozen=True)
class Corpus:
    """One corpus file and what it holds."""

    label: str
    path: Path
    bytes: int
    games: int
    deals: int

    def describe(self) -> dict[str, object]:
        data = asdict(self)
        data["path"] = self.path.name
        return data


def _code_digest() -> str:
    digest = hashlib.sha256()
    for name in _GENERATING_CODE:
        digest.update(inspect.getsource(importlib.import_module(name)).encode("utf-8"))
    return digest.hexdigest()[:10]


def _count(path: Path) -> tuple[int, int]:
    """Games and deals, by the header scan."""
    from allfours_notation import scan_headers

    headers = scan_headers(path.read_text(encoding="utf-8"))
    return len(headers), sum(header.deals for header in headers)


def ensure_corpus(label: str, deals: int, seed: int, out_dir: Path = OUT_DIR) -> Corpus:
    """The corpus of about ``deals`` deals, from the cache or newly generated."""
    out_dir.mkdir(parents=True, exist_ok=True)
    stem = f"afn-{deals}-s{seed}-{_code_digest()}"
    path = out_dir / f"{stem}.afn"
    meta = out_dir / f"{stem}.json"
    if path.exists() and meta.exists():
        facts = json.loads(meta.read_text(encoding="utf-8"))
        return Corpus(label, path, path.stat().st_size, facts["games"], facts["deals"])
    partial = path.with_suffix(".part")
    partial.write_text(generated_corpus(deals, seed), encoding="utf-8")
    partial.replace(path)
    games, counted = _count(path)
    meta.write_text(json.dumps({"games": games, "deals": counted}), encoding="utf-8")
    return Corpus(label, path, path.stat().st_size, games, counted)
