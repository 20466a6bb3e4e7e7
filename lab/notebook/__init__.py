"""Notebook glue: step a harness turn by turn; show turns, runs, code and pictures as HTML.

views.py holds the stepper and the rich views; pictures.py the hand-drawn SVG charts;
probe_inline.py runs `lab probe` for notebook 08 (import it as a module:
`from lab.notebook import probe_inline as probe`).
"""

from lab.notebook.pictures import (
    call_fates,
    mechanism_map,
    timeline,
    tray_chart,
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
    course_run_view,
    course_view,
    ends_view,
    experiment,
    finding_view,
    html,
    invariants_view,
    matrix_view,
    outcome,
    panorama,
    side_by_side,
    sides,
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
    "finding_view",
    "claims",
    "code",
    "course_run_view",
    "course_view",
    "ends_view",
    "experiment",
    "html",
    "invariants_view",
    "matrix_view",
    "mechanism_map",
    "outcome",
    "panorama",
    "side_by_side",
    "sides",
    "timeline",
    "to_html",
    "tray_chart",
    "turn_view",
    "verdict",
]
