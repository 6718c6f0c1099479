"""The sentences the distilled vectors are fitted on, and their teacher vectors.

- Debian's `fortunes` package (`apt-get install fortunes`: quotations, jokes and aphorisms under
  free licences) split into sentences of 4–40 words;
- WordNet 3.0 (`apt-get install wordnet-base`; the WordNet licence, free to use): every example
  sentence and every fourth definition of 4–40 words, which say what words mean in other words.

Each deduplicated and sorted, so the same package versions give the same corpus. Their MiniLM
vectors are cached beside the token outputs.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

import numpy as np

FORTUNES = Path("/usr/share/games/fortunes")
WORDNET = Path("/usr/share/wordnet")
# Collections of drawings rather than sentences.
SKIP = {"art", "ascii-art"}


def sentences() -> list[str]:
    if not FORTUNES.is_dir():
        sys.exit("the corpus is Debian's fortunes package: apt-get install fortunes")
    out = set()
    for f in sorted(FORTUNES.iterdir()):
        if f.suffix or f.is_dir() or f.name in SKIP:
            continue
        for entry in f.read_text(encoding="utf-8", errors="ignore").split("\n%\n"):
            entry = re.sub(r"\s+", " ", entry).strip()
            for s in re.split(r"(?<=[.!?])\s+", entry):
                letters = sum(c.isalpha() for c in s)
                if 4 <= len(s.split()) <= 40 and letters > 0.7 * len(s.replace(" ", "")):
                    out.add(s)
    return sorted(out)


def wordnet() -> list[str]:
    """WordNet 3.0's example sentences, then every fourth of its definitions (in sorted order),
    4–40 words each (Debian's `wordnet-base`)."""
    if not WORDNET.is_dir():
        sys.exit("the corpus includes Debian's wordnet-base package: apt-get install wordnet-base")
    examples, glosses = set(), set()
    for pos in ("noun", "verb", "adj", "adv"):
        text = (WORDNET / f"data.{pos}").read_text(encoding="utf-8", errors="ignore")
        for line in text.splitlines():
            if line.startswith("  ") or "|" not in line:
                continue
            for part in re.split(r";\s*", line.split("|", 1)[1].strip()):
                quoted = part.startswith('"')
                part = part.strip().strip('"').strip()
                if 4 <= len(part.split()) <= 40:
                    (examples if quoted else glosses).add(part)
    return sorted(examples) + sorted(glosses)[::4]


def teacher(model, tok, texts: list[str], cache: Path) -> np.ndarray:
    """Normalised MiniLM vectors of `texts` (cached: about ten minutes on two cores)."""
    if cache.exists():
        return np.load(cache)
    enc = [e.ids for e in tok.encode_batch(texts)]
    order = np.argsort([len(e) for e in enc], kind="stable")
    out = np.zeros((len(texts), 384), dtype=np.float32)
    batch = 64
    for s in range(0, len(texts), batch):
        idx = order[s:s + batch]
        width = max(len(enc[i]) for i in idx)
        ids = np.zeros((len(idx), width), dtype=np.int64)
        mask = np.zeros_like(ids)
        for r, i in enumerate(idx):
            ids[r, :len(enc[i])] = enc[i]
            mask[r, :len(enc[i])] = 1
        v = model.forward(ids, mask)
        out[idx] = v / np.linalg.norm(v, axis=1, keepdims=True)
        print(f"\r{min(len(texts), s + batch)}/{len(texts)} sentences", end="", file=sys.stderr)
    print(file=sys.stderr)
    cache.parent.mkdir(parents=True, exist_ok=True)
    np.save(cache, out)
    return out
