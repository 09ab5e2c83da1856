# SPDX-License-Identifier: GPL-2.0
"""Tables and quoted numbers of Documentation/ from the samples in
Documentation/data/, through schedcmp (the statistics are all schedcmp's:
this only formats its JSON and counts).

  docs.py table DATA [BENCH...]   the reStructuredText table(s) of DATA
  docs.py facts DATA              every number a paragraph may quote
                                  (DATA@SETTING: against SETTING as the
                                  base, schedcmp --base, in both)
  docs.py pelt-table              the closed-form table of pelt-multiplier.rst
  docs.py check [RST...]          every table and quoted number against its
                                  data, then that a changed sample is caught
  docs.py numbers [PAGE...]       the numbers that have no source yet
                                  (pagenumbers.py says how to give one)
  docs.py add SAMPLES NAME BOARD HOST-COMMAND [NOTE]
                                  a run's samples into Documentation/data/

In a page, a table is announced by the command that prints it, in a
literal on one line:  ``make docs-table DATA=Documentation/data/F.tsv BENCH=B``
(BENCH optional, several names separated by commas; `` BASE=SETTING``
after it compares against SETTING instead of the first setting); the
next simple table must be exactly what it prints.  A paragraph that quotes numbers follows
comment lines that name them:

  .. data: F SUBJECT: FIELD FIELD ...

F is a file of Documentation/data/ without ".tsv", or F@SETTING for the
changes against SETTING (as BASE= above); SUBJECT is
BENCH/PARAM/SETTING (one column), BENCH/*/SETTING (over the parameters) or
BENCH/pooled/SETTING (schedcmp --pooled; pooled-UNIT when the benchmark has
several units), BENCH/position/K (schedcmp --order: the K-th run of each
round; position-UNIT likewise); a column's halves-* fields are --order's
later half of its runs against the earlier half; SUBJECT "meta" takes the
file's header lines as fields ("meta: seed series"), SUBJECT "file" has
"samples", their number.  The value of each
field, as "facts" prints it, must appear in the paragraph (the lines up to
the next blank one).

Besides the pages of Documentation/, the check reads README.md, where
the comment lines are "<!-- data: F SUBJECT: FIELD ... -->" (a table
counts as the paragraph after them), and patches/cover-letter.txt, whose
".. data:" lines scripts/mbox leaves out of the mail.
"""

import json
import math
import os
import re
import subprocess
import sys
import tempfile

import pagenumbers as numbers

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DOCS = os.path.join(ROOT, "Documentation")
DATA = os.path.join(DOCS, "data")

TABLE_CMD = re.compile(r"``make docs-table DATA=(\S+?)(?: BENCH=(\S+?))?(?: BASE=(\S+?))?``")
PELT_CMD = re.compile(r"``scripts/docs/docs pelt-table``")
DATA_LINE = re.compile(r"^(?:\.\. data: (\S+) (\S+): (.+)|<!-- data: (\S+) (\S+): (.+?) -->)$")


def data_line(ln):
    """(DATA, SUBJECT, FIELDS) of a ".. data:" or "<!-- data: -->" line, or None."""
    d = DATA_LINE.match(ln)
    if not d:
        return None
    g = d.groups()
    return g[0:3] if g[0] else g[3:6]
BORDER = re.compile(r"^=+( +=+)*$")


class Error(Exception):
    pass


# ------------------------------------------------------------------ schedcmp

def schedcmp_json(path, base=None):
    exe = os.environ.get("SCHEDCMP")
    if not exe:
        raise Error("SCHEDCMP is not set: run this through scripts/docs/docs "
                    "or make docs-table / docs-check")
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "r.json")
        p = subprocess.run([exe, "--pooled", "--order"] +
                           (["--base", base] if base else []) + ["--json", out, path],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                           text=True)
        if p.returncode != 0:
            raise Error(p.stderr.strip() or "schedcmp failed on %s" % path)
        with open(out) as f:
            return json.load(f)


def data_spec(spec):
    """DATA or DATA@BASE: the data file's path and the base setting (or None)."""
    name, _, base = spec.partition("@")
    return data_path(name), base or None


def data_path(name):
    """DATA as given on the command line or in a page: a path, or a name."""
    for cand in (name, os.path.join(ROOT, name), os.path.join(DATA, name),
                 os.path.join(DATA, name + ".tsv")):
        if os.path.isfile(cand):
            return os.path.abspath(cand)
    raise Error("no data file %s (looked in %s)" % (name, os.path.relpath(DATA, ROOT)))


# ------------------------------------------------------------------ formatting

def fmt_value(v):
    """About 4 significant digits: 0.9147, 3.264, 81.40, 108.8, 2564."""
    if v is None:
        return "n/a"
    a = abs(v)
    digits = len(str(int(a))) if a >= 1 else 0
    return "%.*f" % (max(0, 4 - digits), v)


def fmt_p(p):
    if p is None:
        return "n/a"
    if p == 0:
        return "0"
    if p < 1e-4:
        return "%.1e" % p
    return "%.4f" % p


def fmt_p_short(p):
    if p is None:
        return "n/a"
    if p == 0:
        return "0"
    if p < 1e-3:
        return "%.1e" % p
    return "%.2g" % p if p < 0.01 else "%.2f" % p


def pct(v, nd):
    return "n/a" if v is None else "%+.*f%%" % (nd, v)


def interval(lo, hi, nd):
    if lo is None or hi is None:
        return "n/a"
    return "[%+.*f%%, %+.*f%%]" % (nd, lo, nd, hi)


def cv_text(v):
    return "n/a" if v is None else "%.1f%%" % v


# ------------------------------------------------------------------ tables

def groups_of(res, benches):
    gs = [g for g in res["comparisons"] if not benches or g["benchmark"] in benches]
    for b in benches or ():
        if not any(g["benchmark"] == b for g in gs):
            have = sorted({g["benchmark"] for g in res["comparisons"]})
            raise Error("no benchmark %s in the data (it has: %s)" % (b, " ".join(have)))
    return gs


def rst_table(header, rows):
    cols = len(header)
    width = [max(len(str(r[i])) for r in [header] + rows) for i in range(cols)]
    border = "  ".join("=" * w for w in width)

    def line(r):
        return "  ".join(str(r[i]).ljust(width[i]) for i in range(cols)).rstrip()
    return [border, line(header), border] + [line(r) for r in rows] + [border]


def mean_cell(c, unit, units_same):
    v = fmt_value(c["mean"])
    return v if units_same else "%s %s" % (v, unit)


def change_cells(c):
    star = "*" if c["significant"] else ""
    return [pct(c["mean_change_pct"], 2) + star,
            interval(c["ci95_low_pct"], c["ci95_high_pct"], 2) + star,
            fmt_p(c["p_value"])]


def table_lines(res, benches):
    out = []
    by_bench = []
    for g in groups_of(res, benches):
        if not by_bench or by_bench[-1][0] != g["benchmark"]:
            by_bench.append((g["benchmark"], []))
        by_bench[-1][1].append(g)
    for bench, gs in by_bench:
        units = {g["unit"] for g in gs}
        same = len(units) == 1
        unit = " " + next(iter(units)) if same else ""
        ncol = max(len(g["columns"]) for g in gs)
        if out:
            out.append("")
        if ncol == 2:
            base = gs[0]["columns"][0]["name"]
            other = gs[0]["columns"][1]["name"]
            header = ["parameter", base + unit, "cv", other + unit, "cv",
                      "change", "95% CI of the change", "p"]
            rows = []
            for g in gs:
                b, c = g["columns"][0], g["columns"][1] if len(g["columns"]) > 1 else None
                if b["name"] != base or (c and c["name"] != other):
                    raise Error("%s %s has other settings than %s and %s"
                                % (bench, g["parameter"], base, other))
                row = [g["parameter"], mean_cell(b, g["unit"], same), cv_text(b["coeffvar_pct"])]
                if c:
                    row += [mean_cell(c, g["unit"], same), cv_text(c["coeffvar_pct"])] + change_cells(c)
                else:
                    row += ["n/a"] * 5
                rows.append(row)
        else:
            header = ["parameter", "setting", "mean" + unit, "cv", "change",
                      "95% CI of the change", "p"]
            rows = []
            for g in gs:
                for i, c in enumerate(g["columns"]):
                    row = [g["parameter"] if i == 0 else "", c["name"],
                           mean_cell(c, g["unit"], same), cv_text(c["coeffvar_pct"])]
                    row += ["base", "", ""] if i == 0 else change_cells(c)
                    rows.append(row)
        out += rst_table(header, rows)
    return out


def pelt_table():
    """PELT's closed form per sched_pelt_multiplier: util of an always
    running task from 0 to 80%, and of a sleeping one from 100% to 10%."""
    rows = []
    for m in (1, 2, 4):
        h = 32.0 / m
        rows.append([str(m), "%d ms" % h, "%d ms" % round(h * math.log2(5)),
                     "%d ms" % round(h * math.log2(10))])
    return rst_table(["value", "halflife", "util 0 -> 80%", "util 100% -> 10%"], rows)


# ------------------------------------------------------------------ facts

def facts(res):
    f = {}
    for src in res["sources"][:1]:
        for key, value in src["meta"]:
            f.setdefault("meta " + key, value)
    f["file samples"] = str(sum(c["n"] for g in res["comparisons"] for c in g["columns"]))
    overs = {}
    for g in res["comparisons"]:
        base = g["columns"][0]
        for i, c in enumerate(g["columns"]):
            key = "%s/%s/%s" % (g["benchmark"], g["parameter"], c["name"])
            f[key + " mean"] = fmt_value(c["mean"])
            f[key + " min"] = fmt_value(c["min"])
            f[key + " max"] = fmt_value(c["max"])
            f[key + " cv"] = cv_text(c["coeffvar_pct"])
            f[key + " n"] = str(c["n"])
            if i == 0:
                continue
            o = overs.setdefault("%s/*/%s" % (g["benchmark"], c["name"]),
                                 {"better": 0, "worse": 0, "sig": 0, "n": 0, "cv": []})
            o["n"] += 1
            for col in (base, c):
                if col["coeffvar_pct"] is not None:
                    o["cv"].append(col["coeffvar_pct"])
            f[key + " change"] = pct(c["mean_change_pct"], 1)
            f[key + " ci"] = interval(c["ci95_low_pct"], c["ci95_high_pct"], 1)
            f[key + " p"] = fmt_p_short(c["p_value"])
            ch = c["mean_change_pct"]
            if ch is not None and ch > 0:
                o["better"] += 1
            if ch is not None and ch < 0:
                o["worse"] += 1
            o["sig"] += 1 if c["significant"] else 0
    for key, o in overs.items():
        f[key + " better"] = "%d of %d" % (o["better"], o["n"])
        f[key + " worse"] = "%d of %d" % (o["worse"], o["n"])
        f[key + " significant"] = "%d of %d" % (o["sig"], o["n"])
        f[key + " params"] = str(o["n"])
        if o["cv"]:
            f[key + " cv-range"] = "%d%% to %d%%" % (round(min(o["cv"])), round(max(o["cv"])))
    units = {}
    for p in res.get("pooled", []):
        units.setdefault((p["benchmark"], p["name"]), []).append(p)
    for p in res.get("pooled", []):
        keys = ["%s/pooled-%s/%s" % (p["benchmark"], p["unit"], p["name"])]
        if len(units[(p["benchmark"], p["name"])]) == 1:
            keys.append("%s/pooled/%s" % (p["benchmark"], p["name"]))
        for key in keys:
            f[key + " pairs"] = str(p["pairs"])
            f[key + " params"] = str(p["parameters"])
            f[key + " change"] = pct(p["change_pct"], 1)
            f[key + " ci"] = interval(p["ci95_low_pct"], p["ci95_high_pct"], 1)
            f[key + " p"] = fmt_p_short(p["p_value"])
    nunits = {}
    for p in res.get("positions", []):
        nunits.setdefault((p["benchmark"], p["position"]), []).append(p)
    for p in res.get("positions", []):
        keys = ["%s/position-%s/%d" % (p["benchmark"], p["unit"], p["position"])]
        if len(nunits[(p["benchmark"], p["position"])]) == 1:
            keys.append("%s/position/%d" % (p["benchmark"], p["position"]))
        for key in keys:
            f[key + " runs"] = str(p["runs"])
            f[key + " change"] = pct(p["change_pct"], 1)
            f[key + " ci"] = interval(p["ci95_low_pct"], p["ci95_high_pct"], 1)
            f[key + " p"] = fmt_p_short(p["p_value"])
    for h in res.get("halves", []):
        key = "%s/%s/%s" % (h["benchmark"], h["parameter"], h["name"])
        f[key + " halves-change"] = pct(h["change_pct"], 1)
        f[key + " halves-ci"] = interval(h["ci95_low_pct"], h["ci95_high_pct"], 1)
        f[key + " halves-p"] = fmt_p_short(h["p_value"])
    return f


# ------------------------------------------------------------------ check

class Checker:
    def __init__(self, override=None, cache=None):
        self.cache = {} if cache is None else cache
        self.override = override or {}   # data name -> path to use instead
        self.used = set()
        self.errors = []
        self.facts_cache = {}
        self.table_cache = {}
        self.tables = {}   # first line of a checked table -> its command's line

    def result(self, name):
        """NAME or NAME@BASE: schedcmp's results, against BASE if given."""
        path, base = data_spec(name)
        self.used.add(path)
        path = self.override.get(path, path)
        if (path, base) not in self.cache:
            self.cache[(path, base)] = schedcmp_json(path, base)
        return self.cache[(path, base)]

    def err(self, where, msg):
        self.errors.append("%s: %s" % (where, msg))

    def facts_of(self, name):
        if name not in self.facts_cache:
            self.facts_cache[name] = facts(self.result(name))
        return self.facts_cache[name]

    def fact_values(self, line):
        """The values a data line names, or None when it is wrong (which
        check_data reports)."""
        data, subject, fields = data_line(line)
        try:
            fs = self.facts_of(data)
        except Error:
            return None
        return [fs[k] for k in ("%s %s" % (subject, f.rstrip(",")) for f in fields.split())
                if k in fs]

    def check_page(self, page):
        rel = os.path.relpath(page, ROOT)
        with open(page) as f:
            self.check_lines(rel, f.read().split("\n"))

    def check_lines(self, rel, lines):
        self.tables = {}   # first line of a checked table -> its command's line
        pending = None   # (line number, data, benches)
        i = 0
        while i < len(lines):
            ln = lines[i]
            m = TABLE_CMD.search(ln) or PELT_CMD.search(ln)
            if m:
                if pending:
                    self.err("%s:%d" % (rel, pending[0]), "no table follows this docs-table command")
                pending = (i + 1, m.group(1), m.group(2), m.group(3)) if m.re is TABLE_CMD \
                    else (i + 1, None, None, None)
            if data_line(ln):
                i = self.check_data(rel, lines, i)
                continue
            if BORDER.match(ln) and i + 1 < len(lines) and lines[i + 1].strip() \
                    and not BORDER.match(lines[i + 1]) and pending:
                end = i + 1
                borders = 1
                while end < len(lines) and borders < 3:
                    if BORDER.match(lines[end]):
                        borders += 1
                    end += 1
                self.check_table(rel, pending, lines, i, end)
                pending = None
                i = end
                continue
            i += 1
        if pending:
            self.err("%s:%d" % (rel, pending[0]), "no table follows this docs-table command")
        numbers.check_numbers(ROOT, rel, lines, self.fact_values, self.tables, self.err)

    def check_table(self, rel, pending, lines, start, end):
        lnum, data, bench, base = pending
        self.tables[start] = lnum - 1
        try:
            if data is None:
                want, data = pelt_table(), "PELT's closed form"
            else:
                key = (data, bench, base)
                if key not in self.table_cache:
                    self.table_cache[key] = table_lines(
                        self.result(data + ("@" + base if base else "")),
                        bench.split(",") if bench else [])
                want = self.table_cache[key]
        except Error as e:
            self.err("%s:%d" % (rel, lnum), str(e))
            return
        got = [x.rstrip() for x in lines[start:end]]
        if got == want:
            return
        for k in range(max(len(got), len(want))):
            g = got[k] if k < len(got) else "(the table ends)"
            w = want[k] if k < len(want) else "(the table ends)"
            if g != w:
                self.err("%s:%d" % (rel, start + k + 1),
                         "the table does not follow from %s (%s):\n"
                         "    page: %s\n    data: %s"
                         % (data, "scripts/docs/docs pelt-table" if pending[1] is None else
                            "make docs-table DATA=%s%s%s" % (data, " BENCH=" + bench if bench else "",
                                                             " BASE=" + base if base else ""),
                            g, w))
                return

    def check_data(self, rel, lines, i):
        """The ".. data:" lines at i and the paragraph after them."""
        claims = []
        while i < len(lines):
            d = data_line(lines[i])
            if not d:
                if numbers.marker(lines[i]):
                    i += 1
                    continue
                break
            claims.append((i + 1, d[0], d[1], d[2].split()))
            i += 1
        j = i
        while j < len(lines) and not lines[j].strip():
            j += 1
        k = j
        while k < len(lines) and lines[k].strip():
            k += 1
        text = " ".join(x.strip() for x in lines[j:k])
        text = re.sub(r"\s+", " ", text)
        if not text:
            self.err("%s:%d" % (rel, claims[0][0]), "no paragraph follows these data lines")
            return i
        for lnum, data, subject, fields in claims:
            where = "%s:%d" % (rel, lnum)
            try:
                fs = facts(self.result(data))
            except Error as e:
                self.err(where, str(e))
                continue
            for field in fields:
                key = "%s %s" % (subject, field.rstrip(","))
                if key not in fs:
                    near = sorted(x for x in fs if x.startswith(subject + " "))
                    self.err(where, "%s has no fact '%s'%s" % (data, key,
                             " (it has: %s)" % ", ".join(x.split(" ", 1)[1] for x in near)
                             if near else " (see docs.py facts %s)" % data))
                    continue
                if not re.search(r"(?<![\w.+-])" + re.escape(fs[key]) + r"(?![\w])", text):
                    self.err("%s:%d" % (rel, j + 1),
                             "the paragraph does not say %s = %s, which %s gives"
                             % (key, fs[key], data))
        return i


# Outside Documentation/: what quotes the same numbers to users and
# maintainers.
OTHER_PAGES = ("README.md", os.path.join("patches", "cover-letter.txt"))


def pages(args):
    if args:
        return [os.path.abspath(a) for a in args]
    rst = sorted(os.path.join(DOCS, f) for f in os.listdir(DOCS) if f.endswith(".rst"))
    return rst + [p for p in (os.path.join(ROOT, o) for o in OTHER_PAGES)
                  if os.path.isfile(p)]


def sample_lines(path):
    """(index, fields) of the sample lines of a data file."""
    with open(path) as f:
        lines = f.read().split("\n")
    out = []
    for n, ln in enumerate(lines):
        if ln.strip() and not ln.startswith("#"):
            out.append((n, ln.split()))
    return lines, out


# What a data file must say about itself (Documentation/data/README).
REQUIRED = ("columns", "host-command", "board", "date", "kernel", "series")


def check_header(c, path):
    have = set()
    with open(path) as f:
        for ln in f:
            m = re.match(r"^# ([\w-]+): ", ln)
            if m:
                have.add(m.group(1))
    missing = [k for k in REQUIRED if k not in have]
    if missing:
        c.err(os.path.relpath(path, ROOT), "no '# %s:' line (Documentation/data/README "
              "says what each header line holds)" % ":', '# ".join(missing))


def check_images(c):
    """Every image is shown by a page, and every image a page shows exists."""
    images = os.path.join(DOCS, "images")
    shown = set()
    for p in pages([]):
        with open(p) as f:
            for n, ln in enumerate(f, 1):
                m = re.match(r"^\.\. (?:image|figure):: (\S+)", ln)
                if not m:
                    continue
                path = os.path.normpath(os.path.join(os.path.dirname(p), m.group(1)))
                shown.add(path)
                if not os.path.isfile(path):
                    c.err("%s:%d" % (os.path.relpath(p, ROOT), n), "no image %s" % m.group(1))
    if os.path.isdir(images):
        for f in sorted(os.listdir(images)):
            path = os.path.join(images, f)
            if path not in shown:
                c.err(os.path.relpath(path, ROOT), "no page shows this image")


def check(args):
    c = Checker()
    for p in pages(args):
        c.check_page(p)
    data_files = sorted(os.path.join(DATA, f) for f in os.listdir(DATA)
                        if f.endswith(".tsv")) if os.path.isdir(DATA) else []
    for f in data_files:
        check_header(c, f)
    if not args:
        check_images(c)
    if not args:
        for f in data_files:
            if f not in c.used:
                c.err(os.path.relpath(f, ROOT), "no page shows a table or a number of it")
    for e in c.errors:
        print("docs-check: " + e, file=sys.stderr)
    if c.errors:
        print("docs-check: %d problem(s); the pages must say what their data "
              "give (make docs-table DATA=... prints a table, "
              "scripts/docs/docs facts DATA lists the numbers)" % len(c.errors),
              file=sys.stderr)
        return 1
    ntab, nfacts = count(args)
    nnum = prove_numbers(c, args)
    if nnum is None:
        return 1
    # Each benchmark of each file: one sample changed must be caught.
    caught = 0
    with tempfile.TemporaryDirectory() as tmp:
        for f in sorted(c.used):
            lines, samples = sample_lines(f)
            seen = set()
            for n, fields in samples:
                if len(fields) < 7 or fields[0] in seen:
                    continue
                seen.add(fields[0])
                bad = list(lines)
                v = float(fields[4])
                fields = list(fields)
                fields[4] = repr(v * 1.25 + 1.0)
                bad[n] = "\t".join(fields)
                alt = os.path.join(tmp, os.path.basename(f))
                with open(alt, "w") as out:
                    out.write("\n".join(bad))
                m = Checker({f: alt}, dict(c.cache))
                for p in pages(args):
                    m.check_page(p)
                if not m.errors:
                    print("docs-check: %s:%d: this sample of %s can change "
                          "without any page noticing: show its benchmark in a "
                          "table or drop it from the file"
                          % (os.path.relpath(f, ROOT), n + 1, fields[0]),
                          file=sys.stderr)
                    return 1
                caught += 1
    print("docs-check: %d tables and %d quoted numbers follow from %d data "
          "files; a changed sample was caught in each of %d benchmarks; "
          "a changed digit was caught in each of %d numbers of %d pages"
          % (ntab, nfacts, len(c.used), caught, nnum, len(pages(args))))
    return 0


def prove_numbers(c, args):
    """Each number of each page, its last digit changed: the check must
    fail.  The count of numbers, or None (said on stderr) when one
    passed.  A number is checked in an excerpt of its page, its block with
    the lines that give its sources (and a table's command), when that
    excerpt passes as it is; else in the whole page."""
    def checker():
        m = Checker(cache=c.cache)
        m.facts_cache, m.table_cache = c.facts_cache, c.table_cache
        return m

    n = 0
    for p in pages(args):
        rel = os.path.relpath(p, ROOT)
        with open(p) as f:
            lines = f.read().split("\n")
        full = checker()
        full.check_lines(rel, lines)
        tables = full.tables
        block_of = {}
        for first, end, claims in numbers.blocks(lines, rel.endswith(".md")):
            start = min(claims + [first])
            head = [lines[tables[first]], ""] if first in tables else []
            for k in range(first, end):
                block_of[k] = (start, end, head)
        verified = {}
        for k, bad in numbers.mutants(lines, rel.endswith(".md")):
            start, end, head = block_of[k]
            if (start, end) not in verified:
                m = checker()
                m.check_lines(rel, head + lines[start:end])
                verified[(start, end)] = not m.errors
            m = checker()
            if verified[(start, end)]:
                m.check_lines(rel, head + lines[start:k] + [bad] + lines[k + 1:end])
            else:
                m.check_lines(rel, lines[:k] + [bad] + lines[k + 1:])
            if not m.errors:
                print("docs-check: %s:%d: a number changed to '%s' passes the check"
                      % (rel, k + 1, bad.strip()), file=sys.stderr)
                return None
            n += 1
    return n


def unsourced(args):
    """numbers [PAGE...]: each block whose numbers lack a source, with them."""
    c = Checker()
    for p in pages(args):
        c.check_page(p)
    for e in c.errors:
        if "has no source" in e or "listed" in e or "is not in" in e:
            print(e.split(" has no source")[0])
    return 0


def count(args):
    ntab = nfacts = 0
    for p in pages(args):
        with open(p) as f:
            for ln in f:
                ntab += len(TABLE_CMD.findall(ln)) + len(PELT_CMD.findall(ln))
                d = data_line(ln.rstrip("\n"))
                if d:
                    nfacts += len(d[2].split())
    return ntab, nfacts


def add(args):
    """add SAMPLES NAME BOARD HOST-COMMAND [NOTE]: a run's samples into
    Documentation/data/NAME.tsv, with the header lines the check asks for."""
    if len(args) not in (4, 5):
        raise Error("usage: docs add SAMPLES.tsv NAME 'BOARD' 'HOST COMMAND' ['NOTE']")
    src, name, board, command = args[:4]
    out = os.path.join(DATA, name + ".tsv")
    if os.path.exists(out):
        raise Error("%s exists: remove it first to replace it" % os.path.relpath(out, ROOT))
    with open(src) as f:
        body = f.read()
    if "# schedstack-samples:" not in body:
        raise Error("%s is not a schedbench sample file (no '# schedstack-samples:' line)" % src)
    head = ["# columns: benchmark parameter setting round value unit direction timestamp "
            "(tab-separated; value in unit, direction says which way is better, "
            "timestamp: seconds since the epoch when the run ended)",
            "# host-command: " + command,
            "# board: " + board]
    if len(args) == 5:
        head.append("# note: " + args[4])
    os.makedirs(DATA, exist_ok=True)
    with open(out, "w") as f:
        f.write("\n".join(head) + "\n" + body)
    print(os.path.relpath(out, ROOT))
    return 0


def main(argv):
    if len(argv) < 2 or argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if len(argv) >= 2 else 2
    cmd, args = argv[1], argv[2:]
    try:
        if cmd == "table":
            if not args:
                raise Error("usage: docs.py table DATA [BENCH...] (make docs-table DATA=FILE [BENCH=B])")
            benches = [b for a in args[1:] for b in a.split(",") if b]
            print("\n".join(table_lines(schedcmp_json(*data_spec(args[0])), benches)))
            return 0
        if cmd == "facts":
            if len(args) != 1:
                raise Error("usage: docs.py facts DATA")
            for k, v in facts(schedcmp_json(*data_spec(args[0]))).items():
                print("%s = %s" % (k, v))
            return 0
        if cmd == "pelt-table":
            print("\n".join(pelt_table()))
            return 0
        if cmd == "check":
            return check(args)
        if cmd == "numbers":
            return unsourced(args)
        if cmd == "add":
            return add(args)
        raise Error("unknown command '%s': table, facts or check" % cmd)
    except Error as e:
        print("docs: %s" % e, file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
