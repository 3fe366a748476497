"""Tests of the scripts in ci/: they import the scripts as modules from the directory above."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
