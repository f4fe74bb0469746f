"""attn installs on its own, and the toolchain around it stays consistent.

- ``pyproject.toml`` describes attn alone: numpy its only dependency, Python 3.10 and later;
- the wheel the site offers (hooks/downloads.py) is byte for byte what ``pip wheel .`` builds with
  the same fixed timestamp, holds attn and its metadata only, and builds the same bytes twice;
- on the oldest Python and numpy attn claims (3.10, numpy 2.0), in a fresh virtual environment
  outside the repository, the wheel installs and attn's own tests pass (the ones that need nothing
  but attn, numpy and hypothesis);
- requirements.lock pins every direct requirement of the toolchain at the same version, every pin
  with its hashes, and set-up installs nothing without them;
- the deploy workflow is valid against the GitHub workflow schema and publishes what
  ``make publish`` builds; the tests workflow runs ``.ci/run`` on pull requests and pushes; every
  action is pinned to a commit and checks out without keeping credentials; zizmor finds nothing
  in .github/; dependabot.yml is valid and covers pip, npm and the actions;
- the licence: MIT for the code in both pyproject.toml files and the wheel's metadata (with the
  licence text inside), CC BY 4.0 for the prose beside it, and CITATION.cff valid.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
import zipfile
from email.parser import Parser
from pathlib import Path

import pytest
import tomllib
import yaml
from pythons import find_python

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
WORKFLOW = ROOT / ".github" / "workflows" / "deploy.yml"
CI_WORKFLOW = ROOT / ".github" / "workflows" / "ci.yml"
WORKFLOWS = sorted((ROOT / ".github" / "workflows").glob("*.yml"))
PIN = re.compile(r"^(?P<name>[A-Za-z0-9][A-Za-z0-9._-]*)==(?P<version>\S+?)(?: \\)?$")
FLOOR_PYTHON = "3.10"
FLOOR_PACKAGES = ["numpy==2.0.*", "pytest==9.2.0", "hypothesis==6.168.5"]  # the newest of each for 3.10


def _downloads_hook():
    spec = importlib.util.spec_from_file_location("downloads_hook", ROOT / "hooks" / "downloads.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """The wheel as the site build makes it."""
    name, data = _downloads_hook().build_wheel(ROOT)
    path = tmp_path_factory.mktemp("wheel") / name
    path.write_bytes(data)
    return path


def _lock_entries() -> dict[str, tuple[str, list[str]]]:
    """requirements.lock as {normalised name: (version, hashes)}."""
    entries, current = {}, None
    for line in (ROOT / "requirements.lock").read_text(encoding="utf-8").splitlines():
        pin = PIN.match(line)
        if pin:
            current = re.sub(r"[-_.]+", "-", pin["name"]).lower()
            entries[current] = (pin["version"], [])
        elif line.strip().startswith("--hash=") and current:
            entries[current][1].append(line.strip().removeprefix("--hash=").rstrip(" \\"))
        elif line.strip() and not line.lstrip().startswith("#"):
            raise AssertionError(f"requirements.lock: a line that is neither a pin, a hash nor a comment: {line!r}")
    return entries


def _lock() -> dict[str, str]:
    return {name: version for name, (version, _) in _lock_entries().items()}


def test_attn_needs_numpy_alone_and_python_3_10():
    project = PYPROJECT["project"]
    assert project["name"] == "attn"
    assert project["dependencies"] == ["numpy>=2.0"], "attn must depend on numpy and nothing else"
    assert project["requires-python"] == f">={FLOOR_PYTHON}"
    assert re.fullmatch(r"\d+\.\d+\.\d+", project["version"])
    backend = PYPROJECT["build-system"]
    assert backend["build-backend"] == "flit_core.buildapi"
    assert backend["requires"] == [f"flit_core=={_lock()['flit-core']}"], "the build backend and the lock disagree"


def test_the_wheel_holds_attn_and_its_metadata_only(wheel):
    version = PYPROJECT["project"]["version"]
    assert wheel.name == f"attn-{version}-py3-none-any.whl"
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        metadata = Parser().parsestr(archive.read(f"attn-{version}.dist-info/METADATA").decode("utf-8"))
        stamps = {info.date_time for info in archive.infolist()}
    sources = sorted(f"attn/{p.name}" for p in (ROOT / "attn").glob("*.py"))
    assert sorted(n for n in names if n.startswith("attn/")) == sorted([*sources, "attn/py.typed"])  # PEP 561
    assert all(n.startswith(("attn/", f"attn-{version}.dist-info/")) for n in names), names
    assert metadata.get_all("Requires-Dist") == ["numpy>=2.0"]
    assert metadata["License-Expression"] == "MIT"
    assert metadata.get_all("License-File") == ["LICENSE"]
    with zipfile.ZipFile(wheel) as archive:
        assert archive.read(f"attn-{version}.dist-info/licenses/LICENSE") == (ROOT / "LICENSE").read_bytes()
    assert metadata["Requires-Python"] == f">={FLOOR_PYTHON}"
    assert stamps == {_downloads_hook().WHEEL_TIMESTAMP}


def test_the_sites_wheel_is_what_pip_builds_and_builds_the_same_twice(wheel, tmp_path):
    again_name, again = _downloads_hook().build_wheel(ROOT)
    assert again == wheel.read_bytes(), "two builds of the wheel differ"
    env = {**os.environ, "SOURCE_DATE_EPOCH": "315532800"}  # 1980-01-01, the hook's fixed timestamp
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--quiet",
            "--disable-pip-version-check",
            "--no-deps",
            "--no-build-isolation",
            "--wheel-dir",
            str(tmp_path),
            str(ROOT),
        ],
        check=True,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    built = tmp_path / again_name
    assert built.is_file(), f"pip built {sorted(p.name for p in tmp_path.iterdir())}"
    assert built.read_bytes() == wheel.read_bytes(), "the site's wheel differs from `pip wheel .`"


def _self_contained_tests() -> list[Path]:
    """attn's test files that need only attn, numpy and hypothesis (not the repository around them)."""
    return [
        p for p in sorted((ROOT / "tests" / "attn").glob("test_*.py")) if "ROOT" not in p.read_text(encoding="utf-8")
    ]


@pytest.mark.slow
def test_attn_passes_its_tests_on_python_3_10_with_numpy_2_0(wheel, tmp_path):
    python = find_python(FLOOR_PYTHON)
    assert python, f"Python {FLOOR_PYTHON} is not installed (attn claims to support it): install it, e.g. with pyenv"
    venv = tmp_path / "venv"
    subprocess.run([python, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    # This environment's pip installs into the new one (pip --python): no second pip to set up.
    pip = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(venv / "bin" / "python"),
            "install",
            "--quiet",
            "--no-compile",
            "--disable-pip-version-check",
            str(wheel),
            *FLOOR_PACKAGES,
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert pip.returncode == 0, pip.stdout + pip.stderr
    tests = _self_contained_tests()
    assert len(tests) >= 3, f"too few self-contained attn tests: {tests}"
    work = tmp_path / "outside"
    (work / "tests").mkdir(parents=True)
    for path in [ROOT / "tests" / "attn" / "conftest.py", *tests]:
        shutil.copy(path, work / "tests" / path.name)
    (work / "pytest.ini").write_text(
        "[pytest]\nfilterwarnings = error\naddopts = -ra --strict-markers -p no:cacheprovider\n", encoding="utf-8"
    )
    run = subprocess.run(
        [
            str(venv / "bin" / "python"),
            "-c",
            "import attn, numpy, sys, pytest; print(attn.__file__, numpy.__version__); "
            "sys.exit(pytest.main(['-q', 'tests']))",
        ],
        cwd=work,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-3000:]
    first = run.stdout.splitlines()[0]
    assert str(venv) in first and " 2.0." in first, f"attn or numpy came from elsewhere: {first}"
    print(
        f"\nPython {FLOOR_PYTHON}, {first.split()[1]} numpy: {run.stdout.strip().splitlines()[-1]} "
        f"({', '.join(p.name for p in tests)})"
    )


def test_the_lock_pins_every_direct_requirement_at_its_version():
    lock = _lock()
    problems = []
    for name in ("requirements.txt", "requirements-test.txt"):
        for line in (ROOT / "toolchain" / name).read_text(encoding="utf-8").splitlines():
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            package, version = line.split("==")
            key = re.sub(r"[-_.]+", "-", package).lower()
            if lock.get(key) != version:
                problems.append(f"toolchain/{name}: {line}, requirements.lock: {lock.get(key, 'missing')}")
    assert problems == [], "\n".join(problems)


def test_the_deploy_workflow_is_a_valid_github_workflow():
    result = subprocess.run(
        [sys.executable, "-m", "check_jsonschema", "--builtin-schema", "vendor.github-workflows", str(WORKFLOW)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_deploy_workflow_tests_builds_and_publishes_with_githubs_pages_actions():
    workflow = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    triggers = workflow[True]  # YAML 1.1 reads the key `on` as true
    assert triggers["push"]["branches"] == ["main"]
    build, deploy = workflow["jobs"]["build"], workflow["jobs"]["deploy"]
    steps = build["steps"]
    uses = [s.get("uses", "").split("@")[0] for s in steps]
    runs = [s.get("run", "") for s in steps]
    order = [
        uses.index("actions/checkout"),
        uses.index("actions/configure-pages"),
        runs.index("make test"),
        runs.index("make publish"),
        uses.index("actions/upload-pages-artifact"),
    ]
    assert order == sorted(order), "checkout, configure, test, build, upload: in this order"
    publish = steps[runs.index("make publish")]
    assert publish["env"]["SITE_URL"] == "${{ steps.pages.outputs.base_url }}"
    assert next(s for s in steps if s.get("id") == "pages")["uses"].startswith("actions/configure-pages@")
    assert steps[uses.index("actions/upload-pages-artifact")]["with"]["path"] == "site"
    assert deploy["needs"] == "build"
    assert deploy["permissions"] == {"pages": "write", "id-token": "write"}
    assert deploy["environment"]["name"] == "github-pages"
    assert [s["uses"].split("@")[0] for s in deploy["steps"]] == ["actions/deploy-pages"]
    assert workflow["permissions"] == {"contents": "read"}, "the build job must not hold the deploy permissions"
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert re.search(r"^publish:", makefile, re.MULTILINE), "the workflow runs `make publish`, which the Makefile lacks"
    floor = next(s for s in steps if "python3.10" in s.get("run", ""))
    assert f"python{FLOOR_PYTHON}" in floor["run"]


@pytest.mark.parametrize(
    "value, expected",
    [
        ("", ""),
        ("downloads/site.zip", "downloads/site.zip"),
        ("/downloads/site.zip", "downloads/site.zip"),
        ("../outside.zip", "error"),
        ("downloads/site.tar", "error"),
    ],
)
def test_the_offline_zip_path_must_stay_inside_the_site_and_be_a_zip(value, expected):
    from types import SimpleNamespace

    from mkdocs.exceptions import PluginError

    config = SimpleNamespace(extra={"offline_zip": value})
    if expected == "error":
        with pytest.raises(PluginError, match="OFFLINE_ZIP="):
            _downloads_hook().on_config(config)
    else:
        assert _downloads_hook().on_config(config).extra["offline_zip"] == expected


def test_a_broken_pyproject_fails_the_wheel_loudly(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "attn"\n', encoding="utf-8")
    with pytest.raises(Exception, match="version|attn"):
        _downloads_hook().build_wheel(tmp_path)


def test_every_pin_of_the_lock_has_hashes_and_set_up_requires_them():
    entries = _lock_entries()
    assert len(entries) > 50, "requirements.lock pins too few packages"
    unhashed = [name for name, (_, hashes) in entries.items() if not hashes]
    assert unhashed == [], f"pinned without hashes: {unhashed}"
    malformed = [h for _, hashes in entries.values() for h in hashes if not re.fullmatch(r"sha256:[0-9a-f]{64}", h)]
    assert malformed == []
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    install = re.search(r"^\t.*pip install.*-r requirements\.lock.*$", makefile, re.MULTILINE)
    assert install and "--require-hashes" in install[0], "set-up must install the lock with --require-hashes"
    lock_rule = re.search(r"^lock:.*\n((?:\t.*\n)+)", makefile, re.MULTILINE)
    assert lock_rule, "the Makefile has no lock target"
    for part in (
        "--generate-hashes",
        "--default-index https://pypi.org/simple",
        "toolchain/requirements.txt",
        "toolchain/requirements-test.txt",
        "--output-file requirements.lock",
    ):
        assert part in lock_rule[1], f"make lock lacks {part}"


def _uses(workflow: Path) -> list[tuple[str, dict]]:
    data = yaml.safe_load(workflow.read_text(encoding="utf-8"))
    return [(step["uses"], step) for job in data["jobs"].values() for step in job.get("steps", []) if "uses" in step]


def test_the_tests_workflow_runs_ci_on_pull_requests_and_pushes():
    workflow = yaml.safe_load(CI_WORKFLOW.read_text(encoding="utf-8"))
    triggers = workflow[True]  # YAML 1.1 reads the key `on` as true
    assert "pull_request" in triggers and "push" in triggers
    assert triggers["push"] is None or not triggers["push"].get("branches"), "every push, not some branches"
    runs = [s.get("run", "") for job in workflow["jobs"].values() for s in job["steps"]]
    assert "bash .ci/run" in runs
    assert workflow["permissions"] == {"contents": "read"}
    floor = next(r for r in runs if "python3.10" in r)
    assert f"python{FLOOR_PYTHON}" in floor, "test_packaging needs Python 3.10 on the machine"
    result = subprocess.run(
        [sys.executable, "-m", "check_jsonschema", "--builtin-schema", "vendor.github-workflows", str(CI_WORKFLOW)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize("workflow", WORKFLOWS, ids=lambda p: p.name)
def test_every_action_is_pinned_to_a_commit_and_keeps_no_credentials(workflow):
    uses = _uses(workflow)
    assert uses, f"{workflow.name} uses no action"
    lines = workflow.read_text(encoding="utf-8").splitlines()
    for ref, step in uses:
        action, _, commit = ref.partition("@")
        assert re.fullmatch(r"[0-9a-f]{40}", commit), f"{workflow.name}: {ref} is not pinned to a full commit hash"
        line = next(line for line in lines if ref in line)
        assert re.search(r"#\s*v\d+(\.\d+)*\s*$", line), f"{workflow.name}: {ref} names no release tag in a comment"
        if action == "actions/checkout":
            kept = step.get("with", {}).get("persist-credentials")
            assert kept is False, f"{workflow.name}: checkout keeps credentials"


def test_zizmor_finds_nothing_in_the_workflows_and_dependabot():
    zizmor = Path(sys.executable).with_name("zizmor")
    assert zizmor.is_file(), f"{zizmor} is missing: zizmor is pinned in requirements.lock"
    result = subprocess.run(
        [str(zizmor), "--offline", "--no-progress", str(ROOT / ".github")], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_zizmor_fails_on_an_unpinned_action_that_keeps_credentials(tmp_path):
    """The check can fail: the deploy workflow as it was before its actions were pinned."""
    zizmor = Path(sys.executable).with_name("zizmor")
    text = re.sub(
        r"actions/checkout@[0-9a-f]{40}.*\n\s+with:\n\s+persist-credentials: false.*\n",
        "actions/checkout@v5\n",
        WORKFLOW.read_text(encoding="utf-8"),
    )
    assert "actions/checkout@v5" in text
    (tmp_path / "workflows").mkdir()
    (tmp_path / "workflows" / "deploy.yml").write_text(text, encoding="utf-8")
    result = subprocess.run(
        [str(zizmor), "--offline", "--no-progress", str(tmp_path / "workflows" / "deploy.yml")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode != 0
    assert "unpinned-uses" in result.stdout and "artipacked" in result.stdout


def test_dependabot_updates_pip_npm_and_the_actions():
    path = ROOT / ".github" / "dependabot.yml"
    result = subprocess.run(
        [sys.executable, "-m", "check_jsonschema", "--builtin-schema", "vendor.dependabot", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    updates = {u["package-ecosystem"]: u for u in yaml.safe_load(path.read_text(encoding="utf-8"))["updates"]}
    assert set(updates) == {"pip", "npm", "github-actions"}
    assert updates["npm"]["directory"] == "/tests/gates" and (ROOT / "tests" / "gates" / "package-lock.json").is_file()
    assert set(updates["pip"]["directories"]) == {"/", "/toolchain"}


def test_the_code_is_mit_and_the_prose_cc_by_4_0():
    assert PYPROJECT["project"]["license"] == "MIT" and PYPROJECT["project"]["license-files"] == ["LICENSE"]
    toolchain = tomllib.loads((ROOT / "toolchain" / "pyproject.toml").read_text(encoding="utf-8"))
    assert toolchain["project"]["license"] == "MIT"
    assert (ROOT / "toolchain" / "LICENSE").read_bytes() == (ROOT / "LICENSE").read_bytes()
    # PEP 639's fields need setuptools 77 or later
    assert tuple(int(p) for p in _lock()["setuptools"].split(".")[:2]) >= (77, 0)
    assert (ROOT / "LICENSE").read_text(encoding="utf-8").startswith("MIT License")
    docs = (ROOT / "LICENSE-docs").read_text(encoding="utf-8")
    assert "Attribution 4.0 International Public License" in docs and "Section 8 -- Interpretation." in docs
    config = yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=_MkDocsYaml)
    assert "MIT" in config["copyright"] and "CC BY 4.0" in config["copyright"]


class _MkDocsYaml(yaml.SafeLoader):
    """mkdocs.yml's own tags (!ENV) read as their default."""


_MkDocsYaml.add_constructor(
    "!ENV", lambda loader, node: loader.construct_sequence(node)[-1] if isinstance(node, yaml.SequenceNode) else None
)


@pytest.mark.parametrize(
    "broken, ok",
    [
        (None, True),
        ("cff-version: 1.2.0\ntitle: no authors\n", False),
        ("cff-version: 1.2.0\nmessage: m\ntitle: t\nauthors: []\n", False),
    ],
)
def test_citation_cff_is_valid_citation_file_format(tmp_path, broken, ok):
    path = ROOT / "CITATION.cff"
    if broken is not None:
        path = tmp_path / "CITATION.cff"
        path.write_text(broken, encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "check_jsonschema", "--builtin-schema", "vendor.citation-file-format", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert (result.returncode == 0) is ok, result.stdout + result.stderr
