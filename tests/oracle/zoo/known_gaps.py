"""The zoo's known gaps, shared by tests/oracle/test_zoo.py (non-strict xfail) and bench/zoo_report.py (the note
of a failing row)."""

# Known gaps: (model, variant) -> the exact missing piece. Marked xfail (not strict: a fix shows as XPASS, then
# remove the entry). Each is also listed in bench/ZOO.md with Kindling's own error.
KNOWN_GAPS = {
    ("swin_t", "scripted"): "torch.div(..., out=...) in the F.* library (keyword argument out unknown)",
    ("deeplabv3_mobilenet_v3_large", "scripted"): "aten::_upsample_bilinear2d_aa (F.interpolate antialias branch)",
    ("lraspp_mobilenet_v3_large", "scripted"): "aten::_upsample_bilinear2d_aa (F.interpolate antialias branch)",
    ("fasterrcnn_mobilenet_v3_large_320_fpn", "scripted"):
        "aten::where(Tensor condition) -> Tensor[] (torch.where with one argument), then _upsample_bilinear2d_aa, "
        "unique, meshgrid, losses (compiled training branches)",
    ("ssdlite320_mobilenet_v3_large", "scripted"):
        "aten::where(Tensor condition) -> Tensor[] (torch.where with one argument), then _upsample_bilinear2d_aa, "
        "unique, meshgrid, losses (compiled training branches)",
    ("retinanet_resnet50_fpn", "scripted"):
        "aten::where(Tensor condition) -> Tensor[] (torch.where with one argument), then _upsample_bilinear2d_aa, "
        "unique, meshgrid, losses (compiled training branches)",
    ("rnn_cells", "traced"): "aten::unsafe_chunk (traced LSTMCell/GRUCell)",
    ("fcn_resnet50", "scripted"): "aten::_upsample_bilinear2d_aa (F.interpolate antialias branch)",
    ("raft_small", "scripted"): "aten::meshgrid (coords_grid)",
    ("raft_small", "traced"): "aten::meshgrid (coords_grid)",
}
