"""Notebook glue: step a harness turn by turn; show turns, runs, code and pictures as HTML.

views.py holds the stepper and the rich views; pictures.py the hand-drawn SVG charts.
"""

from lab.notebook.pictures import (
    call_fates,
    cells,
    mechanism_map,
    timeline,
    tray_chart,
    wrap,
)
from lab.notebook.views import (
    Pair,
    Picture,
    Step,
    Stepper,
    View,
    case_view,
    claims,
    code,
    experiment,
    html,
    invariants_view,
    matrix_view,
    outcome,
    panorama,
    side_by_side,
    to_html,
    turn_view,
    verdict,
)

__all__ = [
    "Pair",
    "Picture",
    "Step",
    "Stepper",
    "View",
    "call_fates",
    "case_view",
    "cells",
    "claims",
    "code",
    "experiment",
    "html",
    "invariants_view",
    "matrix_view",
    "mechanism_map",
    "outcome",
    "panorama",
    "side_by_side",
    "timeline",
    "to_html",
    "tray_chart",
    "turn_view",
    "verdict",
    "wrap",
]
