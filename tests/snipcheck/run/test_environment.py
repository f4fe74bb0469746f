"""The environment fingerprint's list of installed distributions, kept between builds: the same
list as importlib.metadata gives, and made again when any distribution's metadata changes."""

from __future__ import annotations

import importlib.metadata
import re

import snipcheck.run.environment as environment


def _as_importlib_lists_them() -> list[str]:
    return sorted(
        {
            f"{re.sub(r'[-_.]+', '-', d.metadata['Name']).lower()}=={d.version}"
            for d in importlib.metadata.distributions()
            if d.metadata and d.metadata["Name"]
        }
    )


def test_the_list_is_what_importlib_reads_kept_or_not(tmp_path):
    expected = _as_importlib_lists_them()
    assert environment.installed_distributions() == expected
    assert environment.installed_distributions(tmp_path) == expected  # made and kept
    assert (tmp_path / environment.DISTRIBUTIONS).is_file()
    assert environment.installed_distributions(tmp_path) == expected  # read back


def test_a_changed_distribution_is_a_miss(tmp_path, monkeypatch):
    texts = ["Metadata-Version: 2.1\nName: Some_Package\nVersion: 1.0\n", "Metadata-Version: 2.1\nName: other\nVersion: 2\n"]
    monkeypatch.setattr(environment, "_metadata_texts", lambda: list(texts))
    assert environment.installed_distributions(tmp_path) == ["other==2", "some-package==1.0"]
    texts[0] = texts[0].replace("1.0", "1.1")
    assert environment.installed_distributions(tmp_path) == ["other==2", "some-package==1.1"]
    texts.append("Metadata-Version: 2.1\nName: new\nVersion: 3\n")
    assert environment.installed_distributions(tmp_path) == ["new==3", "other==2", "some-package==1.1"]
    fingerprint = environment.environment_fingerprint(tmp_path)
    texts.pop()
    assert environment.environment_fingerprint(tmp_path) != fingerprint


def test_an_edit_of_the_module_is_a_miss(tmp_path, monkeypatch):
    monkeypatch.setattr(environment, "_metadata_texts", lambda: ["Name: a\nVersion: 1\n"])
    monkeypatch.setattr(environment, "_distribution_lines", lambda texts: ["made afresh"])
    (tmp_path / environment.DISTRIBUTIONS).write_text("a key made by older code\nkept==0", encoding="utf-8")
    assert environment.installed_distributions(tmp_path) == ["made afresh"]
    real = environment.Path.read_text

    def edited(self, *args, **kwargs):
        text = real(self, *args, **kwargs)
        return text + "\n# edited" if self.name == "environment.py" else text

    monkeypatch.setattr(environment.Path, "read_text", edited)
    (tmp_path / environment.DISTRIBUTIONS).write_text(real(tmp_path / environment.DISTRIBUTIONS).replace("made afresh", "kept"), encoding="utf-8")
    assert environment.installed_distributions(tmp_path) == ["made afresh"]


def test_a_folder_that_cannot_be_written_still_gives_the_list(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    assert environment.installed_distributions(blocker / "cache") == _as_importlib_lists_them()
