"""Example cuTile Python kernels bundled with tileport (used by the demo, doctor's smoke compile and the tests)."""
from pathlib import Path

EXAMPLES_DIR = Path(__file__).parent
