"""What the Rust side is checked against, from the teacher's own tools:

    ~/.cache/mnemo/venv/bin/python scripts/distill/teacher.py

writes `tests/data/meaning/minilm.f16` (MiniLM vectors of the meaning set,
`tests/data/meaning/paraphrase.json`, so the evaluation can score the teacher from a clone
alone: raw little-endian float16 rows, 384 wide, L2-normalised, in the order facts, then
questions fact by fact, then abstain questions) and `tests/data/meaning/wordpiece.json` (token
ids from Hugging Face's tokenizer for texts of every kind, which Mnemo's WordPiece must match).
"""
from __future__ import annotations

import json

import numpy as np
from tokenizers import Tokenizer

from distill import REPO
from minilm import MiniLM


def texts(meaning: dict) -> list[str]:
    facts = [f["fact"] for f in meaning["facts"]]
    questions = [q for f in meaning["facts"] for q in f["questions"]]
    return facts + questions + list(meaning["abstain"])


def main() -> None:
    d = REPO / "tests" / "data" / "meaning"
    meaning = json.loads((d / "paraphrase.json").read_text(encoding="utf-8"))
    model = MiniLM()
    tok = Tokenizer.from_file(str(model.dir / "tokenizer.json"))
    tok.no_padding()  # the file pads to 128; one text at a time needs none
    rows = []
    for e in tok.encode_batch(texts(meaning)):
        ids = np.array([e.ids], dtype=np.int64)
        v = model.forward(ids, np.ones_like(ids))[0]
        rows.append(v / np.linalg.norm(v))
    (d / "minilm.f16").write_bytes(np.array(rows, dtype="<f2").tobytes())
    print(f"wrote {len(rows)} vectors to {d / 'minilm.f16'}")
    locomo = json.loads((REPO / "tests" / "data" / "locomo" / "minilm-dev.index.json").read_text())
    samples = HARD + texts(meaning) + [r.get("text") or r["question"] for r in locomo["rows"][::13]]
    cases = [{"text": t, "ids": e.ids[1:-1]} for t, e in zip(samples, tok.encode_batch(samples))]
    lines = ",\n".join(json.dumps(c, ensure_ascii=False) for c in cases)
    (d / "wordpiece.json").write_text(f"[\n{lines}\n]\n", encoding="utf-8")
    print(f"wrote {len(cases)} tokenizer cases to {d / 'wordpiece.json'}")


# Texts where tokenizers differ: accents, scripts, punctuation, controls, long words.
HARD = [
    "Café Zoë is naïve about crème brûlée", "İstanbul and ıslak", "Straße STRASSE ǅemal",
    "我在北京工作, 东京 too", "I ❤️ pizza 🍕 and 🇵🇹", "don't won't rock'n'roll", "e-mail C++/Rust #1",
    "https://example.com/a?b=c&d=e#f", "pi is 3.14159, e is 2.718", "x" * 120, "supercalifragilisticexpialidocious",
    "ＦＵＬＬＷＩＤＴＨ ｔｅｘｔ", "Ελληνικά και русский язык", "tabs\tand\nnewlines\r\nhere", "zero\u200bwidth soft\u00adhyphen",
    "next\u0085line", "e\u0301 combined", "مرحبا بالعالم", "नमस्ते दुनिया", "¿Qué tal? ¡Hola! «quotes» „low“ — dash…",
    "price: $5, 10%, 3€, £2 ¥100", "under_score and back`tick ^caret ~tilde |pipe", "", "   ", "\u0000nul\ufffdrep",
    "日本語のテキストとカタカナ", "한국어 텍스트", "ﬁ ligature and Ⅻ numeral", "𝔘𝔫𝔦𝔠𝔬𝔡𝔢 math letters",
]


if __name__ == "__main__":
    main()
