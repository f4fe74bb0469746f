"""Under ``serve --dirty`` the builder's notice that a dirty build may be stale is dropped, from
MkDocs' build logger and from ProperDocs' alike (a strict preview would abort on it)."""

from __future__ import annotations

import logging

import pytest

from snipcheck.mkdocs.serve import BUILD_LOGGERS, drop_dirty_notice, not_the_dirty_notice

NOTICE = ("A 'dirty' build is being performed, this will likely lead to inaccurate navigation and other"
          " links within your site. This option is designed for site development purposes only.")


class _Caught(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.messages: list[str] = []

    def emit(self, record) -> None:
        self.messages.append(record.getMessage())


@pytest.fixture
def caught(request):
    """A handler on ``request.param``'s build logger, no builder's notice dropped yet (each
    logger's filters are restored afterwards)."""
    kept = {name: list(logging.getLogger(name).filters) for name in BUILD_LOGGERS}
    for name in BUILD_LOGGERS:
        logging.getLogger(name).filters = [f for f in kept[name] if f is not not_the_dirty_notice]
    logger = logging.getLogger(request.param)
    handler = _Caught()
    logger.addHandler(handler)
    yield logger, handler
    logger.removeHandler(handler)
    for name, filters in kept.items():
        logging.getLogger(name).filters = filters


@pytest.mark.parametrize("caught", ["mkdocs.commands.build", "properdocs.commands.build"], indirect=True)
def test_the_dirty_notice_is_dropped_from_either_builders_log(caught):
    logger, handler = caught
    logger.warning(NOTICE)
    assert handler.messages == [NOTICE]  # not dropped before serve --dirty asks
    drop_dirty_notice()
    drop_dirty_notice()  # twice (a second serve in one process): one filter
    assert logger.filters.count(not_the_dirty_notice) == 1
    logger.warning(NOTICE)
    logger.warning("Doc file 'p.md' contains a link 'x.md', but the target is not found")
    assert handler.messages == [NOTICE, "Doc file 'p.md' contains a link 'x.md', but the target is not found"]


@pytest.mark.parametrize("module", ["mkdocs.commands.build", "properdocs.commands.build"])
def test_the_filtered_loggers_are_the_ones_the_builders_log_on(module):
    """The notice comes from each builder's own ``commands.build`` module, worded as filtered."""
    import importlib
    import inspect

    built = importlib.import_module(module)
    assert built.log.name in BUILD_LOGGERS
    assert "A 'dirty' build is being performed" in inspect.getsource(built)
