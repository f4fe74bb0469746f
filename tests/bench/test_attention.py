"""bench/attention.py runs end to end on small n and writes sane JSON (no timing assertions)."""

import importlib.util
import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
METHODS = {"plain", "default", "blockwise", "floor"}


def test_benchmark_writes_sane_json(tmp_path):
    out = tmp_path / "results.json"
    result = subprocess.run(
        [
            sys.executable,
            str(ROOT / "bench" / "attention.py"),
            "--max-n",
            "256",
            "--repeat",
            "2",
            "--min-seconds",
            "0",
            "--json",
            str(out),
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert "floor" in result.stdout and "blockwise" in result.stdout
    report = json.loads(out.read_text())
    assert report["meta"]["d"] == 64
    assert report["meta"]["env"]["OPENBLAS_NUM_THREADS"] == "1"
    assert [entry["n"] for entry in report["results"]] == [128, 256]
    for entry in report["results"]:
        methods = entry["methods"]
        assert set(methods) == METHODS
        for name, m in methods.items():
            assert len(m["times_ms"]) == 2
            assert 0 < m["min_ms"] <= m["median_ms"]
            assert math.isfinite(m["ratio_to_floor"]) and m["ratio_to_floor"] > 0
            assert math.isfinite(m["ratio_to_plain"]) and m["ratio_to_plain"] > 0
            assert m["peak_bytes"] > 0
            if name == "floor":
                assert m["float32_max_abs_err"] is None and m["float64_max_abs_diff"] is None
            else:
                assert 0 <= m["float32_max_abs_err"] < 1e-4
                assert 0 <= m["float64_max_abs_diff"] <= 1e-12
            assert (m["growth"] is None) == (entry["n"] == 128)
        assert methods["floor"]["ratio_to_floor"] == 1.0
        assert methods["plain"]["ratio_to_plain"] == 1.0
        # memory is deterministic enough to check: plain holds n x n float64 matrices, blockwise does not
        n = entry["n"]
        assert methods["plain"]["peak_bytes"] >= n * n * 8
        assert methods["floor"]["peak_bytes"] >= n * n * 8
    targets = {t["target"]: t for t in report["targets"]}
    assert "targets (worst case" in result.stdout
    assert targets["blockwise within 1.05x of the floor"]["met"] is None  # n = 256 is too small
    assert targets["default equals plain to 1e-12 (float64)"]["met"] is True


def load_bench():
    """bench/attention.py as a module (bench/ is not a package)."""
    spec = importlib.util.spec_from_file_location("bench_attention", ROOT / "bench" / "attention.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def fake_report(n, default, blockwise, plain_bytes=100, blockwise_bytes=1):
    """A report with given default and blockwise ratios to the floor at one n."""

    def method(ratio_to_floor, peak):
        return {
            "ratio_to_floor": ratio_to_floor,
            "ratio_to_plain": ratio_to_floor / 2,
            "peak_bytes": peak,
            "float64_max_abs_diff": 0.0,
        }

    return {
        "results": [
            {
                "n": n,
                "methods": {
                    "plain": method(2.0, plain_bytes),
                    "floor": method(1.0, plain_bytes),
                    "default": method(default, 1),
                    "blockwise": method(blockwise, blockwise_bytes),
                },
            }
        ]
    }


@pytest.mark.parametrize(
    "report, target, met",
    [
        (fake_report(1024, 1.10, 1.5), "default within 1.10x of the floor", True),  # the limit itself
        (fake_report(1024, 1.11, 1.5), "default within 1.10x of the floor", False),
        (fake_report(512, 9.0, 9.0), "default within 1.10x of the floor", None),  # n too small
        (fake_report(2048, 1.0, 1.06), "blockwise within 1.05x of the floor", False),
        (fake_report(8192, 1.0, 1.0, 100, 2), "blockwise peak memory at most 2% of plain's", True),
        (fake_report(8192, 1.0, 1.0, 100, 3), "blockwise peak memory at most 2% of plain's", False),
        (fake_report(1024, 2.0, 1.0), "default faster than plain", False),  # ratio to plain exactly 1
    ],
)
def test_targets_are_judged_on_the_sizes_they_apply_to(report, target, met):
    checked = {description: ok for description, _, _, ok, _ in load_bench().check_targets(report)}
    assert checked[target] is met


def test_measurement_functions_are_importable():
    """The site can reuse the measurement code (bench/ is not a package, so load it by path)."""
    code = (
        "import importlib.util, sys\n"
        f"spec = importlib.util.spec_from_file_location('bench_attention', {str(ROOT / 'bench' / 'attention.py')!r})\n"
        "mod = importlib.util.module_from_spec(spec); spec.loader.exec_module(mod)\n"
        "r = mod.measure(64, 16, repeat=2)\n"
        "assert all(len(m['times_ms']) == 2 for m in r.values())\n"
        "r = mod.measure(64, 16, repeat=2, min_seconds=10.0, max_repeat=20)  # a round takes ~1 ms\n"
        "assert all(len(m['times_ms']) == 20 for m in r.values()), r\n"
        "assert set(r) == set(mod.METHODS), r\n"
        "assert mod.peak_memory(64, 16, 'plain') >= 64 * 64 * 8\n"
        "assert mod.float32_error(64, 16, 'blockwise') < 1e-4\n"
        "print('ok')\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"
