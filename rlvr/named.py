"""Named extension points: a table of functions filled by a decorator that refuses duplicates.

As verl's `register_adv_est` and `register_policy_loss`: the function's module registers it
where it is defined, configs validate names against the table, and a new variant is one
decorated function, not an edit in three places. Registering a taken name is an error naming
both functions, so a plugin cannot silently replace a built-in; the same function registered
again (its module imported a second time) is not a second one.

>>> LOSSES: Registry[int] = Registry("example")
>>> @LOSSES.register("one")
... def one() -> int:
...     return 1
>>> LOSSES.get("one")()
1
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Generic, TypeVar

from rlvr.errors import RlvrError

T = TypeVar("T")
F = TypeVar("F", bound=Callable[..., object])


class Registry(Mapping[str, Callable[..., T]], Generic[T]):
    """Name -> function, in registration order; read like a dict, filled by `register`."""

    def __init__(self, kind: str, what: str = "name", hint: str = "") -> None:
        self.kind, self.what, self.hint = kind, what, hint
        self._items: dict[str, Callable[..., T]] = {}

    def register(self, name: str) -> Callable[[F], F]:
        """Decorator: add the function under `name`; a name already taken is an error."""

        def deco(fn: F) -> F:
            old = self._items.get(name)
            if old is not None and _where(old) != _where(fn):  # same one again: a re-import
                raise RlvrError(
                    f"{self.kind}: {self.what} {name!r} is registered twice: {_where(old)} and "
                    f"{_where(fn)}",
                    "give the new one another name",
                )
            self._items[name] = fn  # type: ignore[assignment]
            return fn

        return deco

    def get(self, name: str) -> Callable[..., T]:  # type: ignore[override]
        """The function registered as `name`; an error listing the valid names otherwise."""
        try:
            return self._items[name]
        except KeyError:
            raise RlvrError(
                f"{self.kind}: unknown {self.what} {name!r}",
                f"use one of {self.choices()}{self.hint}",
            ) from None

    def check(self, name: str) -> str:
        """`name` when registered; a ValueError for pydantic validators otherwise."""
        if name not in self._items:
            raise ValueError(
                f"{self.kind}: unknown {self.what} {name!r}; use one of {self.choices()}"
            )
        return name

    def choices(self) -> str:
        return ", ".join(self._items)

    def __getitem__(self, name: str) -> Callable[..., T]:
        return self._items[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)


def _where(fn: object) -> str:
    return f"{getattr(fn, '__module__', '?')}.{getattr(fn, '__qualname__', fn)}"
