"""``python -m memquill.interfaces.cli``."""

from memquill.interfaces.cli import main

main()
