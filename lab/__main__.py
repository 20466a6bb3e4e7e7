"""`python -m lab` runs the same command as the `lab` script."""

import sys

from lab.start import main

sys.exit(main())
