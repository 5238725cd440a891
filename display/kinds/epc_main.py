"""Placeholder for the `epc_main` kind (being built); runs no format yet."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from starlette.routing import BaseRoute


class Pending:
    name = "epc_main"
    routes: Sequence[BaseRoute] = ()

    def formats(self) -> Iterable[str]:
        return ()

    def create(self, record: dict[str, Any]) -> Any:
        raise NotImplementedError

    def apply(self, state: Any, seq: int, record: dict[str, Any]) -> tuple[Any, set[str]]:
        raise NotImplementedError

    def view_names(self, state: Any) -> Iterable[str]:
        return ()

    def view(self, state: Any, meta: dict[str, Any], name: str) -> dict[str, Any] | None:
        return None


KIND = Pending()
