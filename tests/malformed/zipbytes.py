"""A zip reader and writer of our own, so that every field of a zip archive can be told to lie.

`read_entries(data)` returns the records of an archive (name, bytes) in order; `write_zip(entries, ...)` writes
them again, stored (uncompressed), with any field of any local header, central directory header, end of
central directory record, ZIP64 end of central directory record or locator replaced by a chosen value. With no
overrides the output is a valid archive that PyTorch and Kindling both read (the corpus checks that too).
"""
import struct
import zlib

LOCAL_SIG, CD_SIG, EOCD_SIG, Z64_EOCD_SIG, Z64_LOC_SIG = 0x04034B50, 0x02014B50, 0x06054B50, 0x06064B50, 0x07064B50

# Field order and widths of each structure (little endian), as the zip specification (APPNOTE 4.3) lists them.
LOCAL_FIELDS = [("sig", "I"), ("version", "H"), ("flags", "H"), ("method", "H"), ("time", "H"), ("date", "H"),
                ("crc", "I"), ("csize", "I"), ("usize", "I"), ("name_len", "H"), ("extra_len", "H")]
CD_FIELDS = [("sig", "I"), ("made_by", "H"), ("version", "H"), ("flags", "H"), ("method", "H"), ("time", "H"),
             ("date", "H"), ("crc", "I"), ("csize", "I"), ("usize", "I"), ("name_len", "H"), ("extra_len", "H"),
             ("comment_len", "H"), ("disk", "H"), ("int_attr", "H"), ("ext_attr", "I"), ("offset", "I")]
EOCD_FIELDS = [("sig", "I"), ("disk", "H"), ("cd_disk", "H"), ("n_disk", "H"), ("n_total", "H"),
               ("cd_size", "I"), ("cd_offset", "I"), ("comment_len", "H")]
Z64_EOCD_FIELDS = [("sig", "I"), ("rec_size", "Q"), ("made_by", "H"), ("version", "H"), ("disk", "I"),
                   ("cd_disk", "I"), ("n_disk", "Q"), ("n_total", "Q"), ("cd_size", "Q"), ("cd_offset", "Q")]
Z64_LOC_FIELDS = [("sig", "I"), ("disk", "I"), ("eocd_offset", "Q"), ("n_disks", "I")]


def pack(fields, values):
    return b"".join(struct.pack("<" + fmt, values[name] & ((1 << (8 * struct.calcsize(fmt))) - 1))
                    for name, fmt in fields)


def unpack(fields, data, off):
    out = {}
    for name, fmt in fields:
        out[name] = struct.unpack_from("<" + fmt, data, off)[0]
        off += struct.calcsize(fmt)
    return out


def read_entries(data):
    """(name, bytes) of every record of a stored or deflated zip, in central directory order."""
    eocd = data.rindex(struct.pack("<I", EOCD_SIG))
    e = unpack(EOCD_FIELDS, data, eocd)
    n, cd_off = e["n_total"], e["cd_offset"]
    if n == 0xFFFF or cd_off == 0xFFFFFFFF:
        loc = unpack(Z64_LOC_FIELDS, data, eocd - 20)
        z = unpack(Z64_EOCD_FIELDS, data, loc["eocd_offset"])
        n, cd_off = z["n_total"], z["cd_offset"]
    out, p = [], cd_off
    for _ in range(n):
        c = unpack(CD_FIELDS, data, p)
        name = data[p + 46:p + 46 + c["name_len"]].decode()
        extra = data[p + 46 + c["name_len"]:p + 46 + c["name_len"] + c["extra_len"]]
        csize, offset = c["csize"], c["offset"]
        k = 0
        while k + 4 <= len(extra):  # ZIP64 extra field
            hid, hlen = struct.unpack_from("<HH", extra, k)
            if hid == 1:
                vals = list(struct.unpack_from("<" + "Q" * (hlen // 8), extra, k + 4))
                if c["usize"] == 0xFFFFFFFF:
                    vals.pop(0)
                if csize == 0xFFFFFFFF:
                    csize = vals.pop(0)
                if offset == 0xFFFFFFFF:
                    offset = vals.pop(0)
            k += 4 + hlen
        lh = unpack(LOCAL_FIELDS, data, offset)
        start = offset + 30 + lh["name_len"] + lh["extra_len"]
        raw = data[start:start + csize]
        out.append((name, raw if c["method"] == 0 else zlib.decompress(raw, -15)))
        p += 46 + c["name_len"] + c["extra_len"] + c["comment_len"]
    return out


def zip64_extra(*values):
    return struct.pack("<HH", 1, 8 * len(values)) + b"".join(struct.pack("<Q", v) for v in values)


def write_zip(entries, local=None, cd=None, eocd=None, z64_eocd=None, z64_loc=None, zip64=False,
              local_extra=None, cd_extra=None, data=None, align=64, comment=b"", cd_order=None, tail=b""):
    """Bytes of a stored zip of `entries` [(name, bytes)].

    local / cd: {index: {field: value}} replacing header fields (name_len, crc, sizes, offset, ...);
    local_extra / cd_extra: {index: bytes} extra fields; data: {index: bytes} replacing the stored bytes
    after the headers were computed (a lie about the content); eocd / z64_eocd / z64_loc: {field: value};
    zip64: write the ZIP64 end of central directory record and locator, with 0xFFFF/0xFFFFFFFF in the
    classic record; cd_order: indices in central directory order; tail: bytes after the end record.
    Records are aligned on `align` bytes with PyTorch's 'FB' padding field, as torch.jit.save aligns them.
    """
    local, cd, local_extra, cd_extra, data = local or {}, cd or {}, local_extra or {}, cd_extra or {}, data or {}
    out = bytearray()
    offsets = []
    for i, (name, body) in enumerate(entries):
        nm = name.encode()
        crc = zlib.crc32(body) & 0xFFFFFFFF
        extra = local_extra.get(i, b"")
        if align:
            base = len(out) + 30 + len(nm) + len(extra) + 4
            pad = (-base) % align
            extra = extra + struct.pack("<HH", 0x4246, pad) + b"Z" * pad
        fields = dict(sig=LOCAL_SIG, version=20, flags=0, method=0, time=0, date=0x21, crc=crc, csize=len(body),
                      usize=len(body), name_len=len(nm), extra_len=len(extra))
        fields.update(local.get(i, {}))
        offsets.append(len(out))
        out += pack(LOCAL_FIELDS, fields) + nm + extra + data.get(i, body)
    cd_start = len(out)
    for i in (cd_order if cd_order is not None else range(len(entries))):
        name, body = entries[i]
        nm = name.encode()
        extra = cd_extra.get(i, b"")
        fields = dict(sig=CD_SIG, made_by=20, version=20, flags=0, method=0, time=0, date=0x21,
                      crc=zlib.crc32(body) & 0xFFFFFFFF, csize=len(body), usize=len(body), name_len=len(nm),
                      extra_len=len(extra), comment_len=0, disk=0, int_attr=0, ext_attr=0, offset=offsets[i])
        fields.update(cd.get(i, {}))
        out += pack(CD_FIELDS, fields) + nm + extra
    cd_size = len(out) - cd_start
    n = len(entries)
    if zip64:
        z64_at = len(out)
        z = dict(sig=Z64_EOCD_SIG, rec_size=44, made_by=45, version=45, disk=0, cd_disk=0, n_disk=n, n_total=n,
                 cd_size=cd_size, cd_offset=cd_start)
        z.update(z64_eocd or {})
        out += pack(Z64_EOCD_FIELDS, z)
        lc = dict(sig=Z64_LOC_SIG, disk=0, eocd_offset=z64_at, n_disks=1)
        lc.update(z64_loc or {})
        out += pack(Z64_LOC_FIELDS, lc)
    e = dict(sig=EOCD_SIG, disk=0, cd_disk=0, n_disk=0xFFFF if zip64 else n, n_total=0xFFFF if zip64 else n,
             cd_size=0xFFFFFFFF if zip64 else cd_size, cd_offset=0xFFFFFFFF if zip64 else cd_start,
             comment_len=len(comment))
    e.update(eocd or {})
    out += pack(EOCD_FIELDS, e) + comment + tail
    return bytes(out)


def layout(data):
    """Offsets of an archive's structures: {'local': [...], 'data': [(start, end)], 'cd': [...], 'eocd': off}."""
    eocd = data.rindex(struct.pack("<I", EOCD_SIG))
    e = unpack(EOCD_FIELDS, data, eocd)
    p, locs, datas, cds = e["cd_offset"], [], [], []
    for _ in range(e["n_total"]):
        c = unpack(CD_FIELDS, data, p)
        cds.append(p)
        lh = unpack(LOCAL_FIELDS, data, c["offset"])
        locs.append(c["offset"])
        start = c["offset"] + 30 + lh["name_len"] + lh["extra_len"]
        datas.append((start, start + c["csize"]))
        p += 46 + c["name_len"] + c["extra_len"] + c["comment_len"]
    return {"local": locs, "data": datas, "cd": cds, "eocd": eocd}
