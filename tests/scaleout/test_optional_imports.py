"""Ray, Dask (and the pandas and pyarrow they bring) stay optional: importing mtscore, its engine
adapters and the command line's help imports none of them."""

from __future__ import annotations

import subprocess
import sys

HEAVY = ("ray", "dask", "distributed", "pandas", "pyarrow", "torch")


def test_mtscore_and_its_adapters_import_no_engine():
    code = (
        "import sys, mtscore, mtscore.ray, mtscore.dask, mtscore.columns, mtscore.core.sums\n"
        "from mtscore.cli.score import build_parser\n"
        "build_parser().format_help()\n"
        f"print(sorted(name for name in {HEAVY!r} if name in sys.modules))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"
