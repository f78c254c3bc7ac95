"""Python side of the conflict-driven search: its arrays, and one resumable step."""

from __future__ import annotations

import numpy as np

from grader.model import FILLED, UNKNOWN, CellArray
from grader.solver import cdcl
from grader.solver.bundles import Clauses, Learning, Trail
from grader.solver.workspace import Workspace

#: clause store: literals and clauses kept before learned clauses are forgotten
MAX_LITERALS = 4_000_000
MAX_CLAUSES = 200_000
#: scale of the random initial activities: below one bump, so any conflict outranks them
TIE_BREAK = 1e-3
#: seed of those random activities (fixed: the same puzzle always takes the same path)
TIE_BREAK_SEED = 0


class ConflictSearch:
    """Search below a propagated grid whose known cells are taken as facts."""

    def __init__(self, ws: Workspace, grid: CellArray):
        self.ws = ws
        self.grid = grid
        cells = ws.height * ws.width
        literals = min(MAX_LITERALS, max(100_000, 400 * cells))
        self.trail = Trail(
            level=np.zeros(cells, dtype=np.int64),
            reasons=np.zeros(cells, dtype=np.int64),
            reason_pos=np.zeros(cells, dtype=np.int64),
            trail=np.zeros(cells, dtype=np.int64),
            trail_pos=np.zeros(cells, dtype=np.int64),
            st=np.zeros(cdcl.S_SIZE, dtype=np.int64),
            phase=np.full(cells, FILLED, dtype=np.uint8),
            target=np.zeros(cells, dtype=np.uint8),  # target phases; 0: none yet
            settled=np.zeros(ws.height + ws.width, dtype=np.uint8),
        )
        # The clause store is only read where it was written (clauses added, watches
        # linked from watch_head): left uninitialised, its pages are touched as it fills,
        # which keeps a short search from paying for a big store.
        clauses = min(MAX_CLAUSES, literals // 4)
        self.clauses = Clauses(
            lits=np.empty(literals, dtype=np.int64),
            cinfo=np.empty((clauses, 5), dtype=np.int64),
            watch_head=np.full(2 * cells, -1, dtype=np.int64),
            watch_next=np.empty(2 * clauses, dtype=np.int64),
        )
        # Random tie-break before the first conflicts: all-zero activities mean deciding
        # cells in reading order, which makes long, heavy-tailed runs on random puzzles
        # (TAAI #395: 278k conflicts vs 19k-100k with random orders).
        rng = np.random.default_rng(TIE_BREAK_SEED)
        self.learning = Learning(
            seen=np.zeros(cells, dtype=np.uint8),
            learned=np.zeros(cells + 1, dtype=np.int64),
            activity=rng.random(cells) * TIE_BREAK,
            # the only cells a decision can take (the others are facts for good)
            free=np.flatnonzero(grid.ravel() == UNKNOWN),
            bump=np.ones(1, dtype=np.float64),
            order=np.zeros(max(ws.height, ws.width), dtype=np.int64),
            found=np.zeros((ws.height, ws.width), dtype=np.uint8),
        )
        ws.clear_queue()
        cdcl.start_from(grid, self.trail)

    @property
    def found(self) -> CellArray:
        """The last solution found (valid after FOUND or GAVE_UP_FOUND)."""
        return self.learning.found

    @property
    def conflicts(self) -> int:
        return int(self.trail.st[cdcl.S_CONFLICTS])

    @property
    def decisions(self) -> int:
        return int(self.trail.st[cdcl.S_DECISIONS])

    def step(self, work_limit: int, decision_limit: int = 1 << 62) -> int:
        """Search on until a solution (FOUND), the end (EXHAUSTED) or a limit: line solves
        (counted in the workspace) or decisions (counted here), whichever comes first."""
        ws = self.ws
        return int(
            cdcl.run(
                self.grid, ws.line_work, ws.lines_queued, self.trail, self.clauses,
                self.learning, work_limit, decision_limit,
            )
        )
