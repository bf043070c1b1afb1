"""`python -m dormouse`: the command line, so that `torchrun -m dormouse train ...` starts it on each rank
(the distributed chapter, nbs/3_training/35_distributed.ipynb). Not exported from a notebook: nbdev's export to an
existing module is not idempotent, and this file has nothing to explain beyond these lines."""
import sys
from dormouse.cli import main

if __name__ == "__main__": sys.exit(main())
