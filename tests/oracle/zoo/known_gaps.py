"""The zoo's known gaps, shared by tests/oracle/test_zoo.py (non-strict xfail) and bench/zoo_report.py (the note
of a failing row)."""

# Known gaps: (model, variant) -> the exact missing piece. Marked xfail (not strict: a fix shows as XPASS, then
# remove the entry). Each is also listed in bench/ZOO.md with Kindling's own error.
KNOWN_GAPS = {
    ("swin_t", "scripted"):
        "aten::div.out(Tensor self, Tensor other, *, Tensor(a!) out): the archive's F.normalize compiles its out= "
        "branch `torch.div(input, denom, out=out)`; Kindling: 'Arguments for call are not valid ... aten::div.int"
        "(int a, int b) -> float: Keyword argument out unknown.'",
    ("raft_small", "scripted"):
        "aten::grid_sampler(Tensor input, Tensor grid, int interpolation_mode, int padding_mode, bool align_corners)"
        " (F.grid_sample in raft's CorrBlock); Kindling: 'Unknown builtin op: aten::grid_sampler.'",
    ("raft_small", "traced"):
        "aten::grid_sampler(Tensor input, Tensor grid, int interpolation_mode, int padding_mode, bool align_corners)"
        " (traced F.grid_sample); Kindling: 'Unknown builtin op: aten::grid_sampler.'",
}
