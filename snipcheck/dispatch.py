"""One handler per region type for a stage (checking, rendering, accepting): a new region kind is
one dataclass and one registration per stage, and a region with no registration fails loudly."""

from __future__ import annotations


class ByRegion:
    """A stage's handlers, keyed by the exact region type."""

    def __init__(self, stage: str) -> None:
        self.stage = stage
        self._handlers: dict[type, object] = {}

    def register(self, *types: type):
        def add(handler):
            for kind in types:
                if kind in self._handlers:
                    raise TypeError(f"{self.stage}: {kind.__name__} is registered twice")
                self._handlers[kind] = handler
            return handler

        return add

    def handler(self, region):
        try:
            return self._handlers[type(region)]
        except KeyError:
            raise LookupError(
                f"{self.stage}: no handler is registered for {type(region).__name__}: "
                f"register one with {self.stage}.register({type(region).__name__})"
            ) from None

    def __call__(self, region, *args, **kwargs):
        return self.handler(region)(region, *args, **kwargs)

    def registered(self) -> set[type]:
        return set(self._handlers)
