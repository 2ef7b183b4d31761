"""The zoo's known gaps, shared by tests/oracle/test_zoo.py (non-strict xfail) and bench/zoo_report.py (the note
of a failing row)."""

# Known gaps: (model, variant) -> the exact missing piece. Marked xfail (not strict: a fix shows as XPASS, then
# remove the entry). Each is also listed in bench/ZOO.md with Kindling's own error.
# Empty since session 3: swin_t scripted (aten::div.out), raft_small (aten::grid_sampler), detection x3 and
# segmentation scripted (where(condition), meshgrid, _upsample_bilinear2d_aa, losses), rnn_cells traced
# (unsafe_chunk), the traced TransformerEncoder with a padding mask (nested tensors) all pass.
KNOWN_GAPS = {}
