"""toolchain/sitescan/site.py: a built site's files, and how every scan reports on it."""

from __future__ import annotations

import pytest
from sitescan.site import report, site_files


def test_site_files_are_the_files_of_the_kinds_asked_for_sorted(tmp_path):
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "index.html").write_text("<p>b</p>", encoding="utf-8")
    (tmp_path / "a.HTML").write_bytes(b"<p>\xff</p>")
    (tmp_path / "c.css").write_text("p {}", encoding="utf-8")
    (tmp_path / "d.html").mkdir()  # a folder named like a page is not a page
    found = [(path.relative_to(tmp_path).as_posix(), text) for path, text in site_files(tmp_path, (".html",))]
    assert found == [("a.HTML", "<p>\ufffd</p>"), ("b/index.html", "<p>b</p>")]


@pytest.mark.parametrize(
    ("found", "files", "code", "says"),
    [
        ([], 3, 0, "sitescan: x: 3 clean"),
        (["a.html:1: bad", "b.html:2: bad"], 3, 1, "sitescan: x: 2 of 3 bad"),
        ([], 0, 2, "holds no HTML: is it a built site?"),
    ],
)
def test_a_scan_reports_its_findings_and_its_verdict(tmp_path, capsys, found, files, code, says):
    exit_code = report(
        "x",
        str(tmp_path),
        lambda folder: (found, files),
        "HTML",
        lambda n, total: f"{n} of {total} bad",
        lambda total: f"{total} clean",
    )
    err = capsys.readouterr().err
    assert exit_code == code and says in err
    assert all(f"{tmp_path}/{finding}" in err for finding in found)


def test_a_missing_folder_is_not_a_site(tmp_path, capsys):
    assert report("x", str(tmp_path / "nope"), lambda folder: ([], 1), "HTML", str, str) == 2
    assert "is not a folder" in capsys.readouterr().err
