"""Report adapters: what a stack's test tool wrote, turned into one outcome per test.

`base` holds the types, the registry and the "pytest" built-in; `stacks`, `signed` and `junit`
hold the other built-ins and register themselves on import. Importing this package imports them
all, so every built-in name resolves; adapter modules import `base`, never this package.
"""

from rlvr.sandbox.reports import junit, signed, stacks  # noqa: F401  (register the built-ins)
from rlvr.sandbox.reports.base import (
    ENTRY_POINT_GROUP,
    Count,
    Outcome,
    Parse,
    ReportAdapter,
    ReportInput,
    TestOutcome,
    count_pytest,
    get_report_adapter,
    parse_pytest,
    register_report_adapter,
)

__all__ = [
    "ENTRY_POINT_GROUP",
    "Count",
    "Outcome",
    "Parse",
    "ReportAdapter",
    "ReportInput",
    "TestOutcome",
    "count_pytest",
    "get_report_adapter",
    "parse_pytest",
    "register_report_adapter",
]
