"""bench/language.py runs end to end and writes sane JSON (no timing assertions)."""

import json
import math
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_language_benchmark_writes_sane_json(tmp_path):
    out = tmp_path / "results.json"
    result = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "language.py"), "--repeat", "1", "--json", str(out)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    assert "tokens/s" in result.stdout and "per training run" in result.stdout
    report = json.loads(out.read_text())
    assert report["meta"]["env"]["OPENBLAS_NUM_THREADS"] == "1"
    entry = report["result"]
    for piece in ("step", "attention", "core"):
        assert 0 < entry[piece]["min_ms"] <= entry[piece]["median_ms"]
    for piece in ("attention", "core"):
        assert math.isfinite(entry[piece]["share"]) and 0 < entry[piece]["share"]
    assert entry["tokens_per_second"] > 0 and entry["run_seconds"] > 0
