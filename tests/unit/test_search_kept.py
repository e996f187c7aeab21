"""The lowering's keep step (`search/kept.py`): which kept results a core whose regions do
not pack gives up."""

from types import SimpleNamespace

from xdsl.dialects.builtin import UnitAttr

from stc.compiler.memory.rectangles import Request
from stc.compiler.search.kept import give_up_until_fits
from stc.dialects.st import KEEP


class Crowded:
    """A core's requests as `CoreRequests` gives them: kept results 1, 2 and 3 live at times
    0-1, 2-3 and 4-5; the allocator cannot place a request at time `stuck` while the kept
    results in `crowd` are all marked."""

    def __init__(self, stuck: int, crowd: set[int]):
        self.stuck, self.crowd = stuck, crowd
        self.blocks = {i: SimpleNamespace(task_id=i, attributes={KEEP: UnitAttr()}) for i in (1, 2, 3)}
        self.plan = SimpleNamespace(blocks=self.blocks, core=lambda _: (0, 0))
        self.packings = 0

    def unplaced(self, _core):
        self.packings += 1
        if all(KEEP in self.blocks[i].attributes for i in self.crowd):
            return Request("stuck", 1, 1, self.stuck, self.stuck, "stuck")
        return None

    def regions_of(self, task_id: int):
        return [SimpleNamespace(start=2 * (task_id - 1), end=2 * task_id - 1)]

    def moved(self, _task_id: int):
        return set()


def test_a_core_gives_up_the_kept_result_live_where_its_regions_do_not_pack():
    """The allocator fails at time 2, where only result 2 is live: result 2 is given up,
    results 1 and 3 (the last to run) stay kept, and the core is packed twice."""
    requests = Crowded(stuck=2, crowd={2})
    pieces = [(1, range(1)), (2, range(1)), (3, range(1))]
    give_up_until_fits(requests, (0, 0), pieces)  # pyright: ignore[reportArgumentType]
    assert [task_id for task_id, _ in pieces] == [1, 3]
    assert [KEEP in requests.blocks[i].attributes for i in (1, 2, 3)] == [True, False, True]
    assert requests.packings == 2


def test_where_no_kept_result_is_live_at_the_failure_the_last_is_given_up():
    """Failing at time 7, beside none of them, while results 2 and 3 are both marked: the
    last (3) goes, then the core packs."""
    requests = Crowded(stuck=7, crowd={2, 3})
    pieces = [(1, range(1)), (2, range(1)), (3, range(1))]
    give_up_until_fits(requests, (0, 0), pieces)  # pyright: ignore[reportArgumentType]
    assert [task_id for task_id, _ in pieces] == [1, 2]
