# SPDX-License-Identifier: GPL-2.0
"""Every number a page says, and where it comes from.

A page is cut into blocks: a paragraph (up to the next blank line; one
that ends in "::" with the literal block it introduces, blank lines and
all), a simple table (up to its last border), a directive with its body,
or a fenced block of README.md.  Each
digit string in a block is a number (2026-12-02 and 6.12.117 count as
one; digits glued to a letter or "_", as in cpu2 or x86_64, are names).
A number must have a source, given on the lines just before its block:

  .. data: F SUBJECT: FIELD ...      the values of those facts of
                                     Documentation/data/F (docs.py)
  .. numbers: SOURCE: N N ...        these numbers, one entry for each
                                     time the block says one

  (in README.md: <!-- data: ... --> and <!-- numbers: ... -->)

where SOURCE is data/PATH (a file or directory under Documentation/data/,
in which each N must appear), file:PATH (a file of the repository, the
same; not another page, which would only move the question; the page
itself for a value it defines, such as an example command's argument) or
cite:WHERE (a source outside: a seed's table, a paper, a
message; WHERE names it, with no space).  A table that a docs-table
command announces is its own source.  The numbers of a block and the
entries of its sources are compared as multisets: a number the block says
that no entry accounts for fails, and so does an entry the block does not
say.  So changing any digit of any number fails the check, which
mutants() proves on every number of every page.
"""

import os
import re
from collections import Counter

NUMBER = re.compile(r"(?<!\w)(?<!\d\.)(?:\d{4}-\d\d-\d\d|\d+(?:\.\d+)*)(?!\w)")
MARKER = re.compile(r"^\s*(?:\.\. numbers: (.+)|<!-- numbers: (.+?) -->)$")
DATA = re.compile(r"^(?:\.\. data: .+|<!-- data: .+ -->)$")
BORDER = re.compile(r"^\s*=+( +=+)*\s*$")
# What is not a claim: link targets, names of files and paths (a path
# with a letter, a file with its extension, a name with a date stamp), a
# directive's layout options, an enumerated list's label, a footnote's
# label and its references.
_TOK = r"[^\s`()\[\]\"',;]"
NOT_CLAIMS = (re.compile(r"https?://\S+"),
              re.compile(r"%s*(?:[A-Za-z]%s*/|/%s*[A-Za-z])%s*" % ((_TOK,) * 4)),
              re.compile(r"[\w.+-]*\.(?:tsv|txt|png|svg|json|log|patch|rst|md|c|h|sh|py|dts|dtsi"
                         r"|config|mbox|yaml|ko)\b"),
              re.compile(r"[A-Za-z][\w.+-]*-\d{8}\w*"),
              re.compile(r"^\s+:(?:header-rows|stub-columns|widths|width|height|scale"
                         r"|align|class|name):.*"),
              re.compile(r"^\s*(?:\d{1,2}|#)[.)]\s"),
              re.compile(r"^\.\. \[\d+\]"),
              re.compile(r"\[\d+\]_"))


def claims_text(line):
    for r in NOT_CLAIMS:
        line = r.sub(lambda m: " " * len(m.group(0)), line)
    return line


def numbers_in(text):
    return NUMBER.findall(claims_text(text))


def marker(line):
    """(SOURCE, [N...]) of a numbers line, or None."""
    m = MARKER.match(line)
    if not m:
        return None
    body = m.group(1) or m.group(2)
    source, sep, nums = body.rpartition(": ")
    if not sep:
        return (body, [])
    return (source, nums.replace(",", " ").split())


def blocks(lines, markdown):
    """(first, end, claim lines) of each block: lines[first:end] is the
    block, the claim lines the data and numbers lines just before it."""
    out = []
    pending = []
    i = 0
    n = len(lines)
    while i < n:
        ln = lines[i]
        if not ln.strip():
            i += 1
            continue
        if DATA.match(ln) or MARKER.match(ln):
            pending.append(i)
            i += 1
            continue
        if not markdown and ln.startswith("..") and not re.match(r"^\.\. \[\d+\]", ln):
            # a comment or a directive, with its indented body: the body
            # of a table or code directive is a block, an image's options
            # and a comment's text are not
            is_code = re.match(r"^\.\. [\w-]+::", ln) and \
                not re.match(r"^\.\. (?:image|figure|contents)::", ln)
            j = i + 1
            while j < n and (not lines[j].strip() or lines[j].startswith((" ", "\t"))):
                j += 1
            if is_code:
                out.append((i, j, pending))
                pending = []
            i = j
            continue
        if markdown and ln.startswith("<!--"):
            i += 1
            continue
        if markdown and ln.startswith("```"):
            j = i + 1
            while j < n and not lines[j].startswith("```"):
                j += 1
            out.append((i, min(j + 1, n), pending))
            pending = []
            i = j + 1
            continue
        if not markdown and BORDER.match(ln):
            j = i + 1
            borders = 1
            while j < n and borders < 3:
                if BORDER.match(lines[j]):
                    borders += 1
                    if j + 1 >= n or not lines[j + 1].strip():
                        j += 1
                        break
                j += 1
            out.append((i, j, pending))
            pending = []
            i = j
            continue
        j = i
        while j < n and lines[j].strip() and not DATA.match(lines[j]) \
                and not MARKER.match(lines[j]):
            j += 1
        if not markdown and lines[j - 1].rstrip().endswith("::"):
            j = literal_end(lines, i, j)
        out.append((i, j, pending))
        pending = []
        i = j
    return out


def indent(line):
    return len(line) - len(line.lstrip())


def literal_end(lines, first, end):
    """The end of the literal block that the paragraph lines[first:end],
    ending in "::", introduces: the lines indented more than the
    paragraph, blank lines and all."""
    k = end
    while k < len(lines) and not lines[k].strip():
        k += 1
    if k == len(lines) or indent(lines[k]) <= indent(lines[first]):
        return end
    while k < len(lines) and (not lines[k].strip() or
                              indent(lines[k]) > indent(lines[first])):
        k += 1
    while not lines[k - 1].strip():
        k -= 1
    return k


def number_in_file(num, paths):
    pat = re.compile(r"(?<!\d)(?<!\d\.)" + re.escape(num) + r"(?!\d)")
    for p in paths:
        try:
            with open(p, errors="replace") as f:
                if pat.search(f.read()):
                    return True
        except OSError:
            pass
    return False


def page_of(root, path):
    """Whether @path is a page that the check reads."""
    rel = os.path.relpath(os.path.abspath(path), root)
    return rel.startswith("Documentation" + os.sep) and rel.endswith(".rst") or \
        rel in ("README.md", os.path.join("patches", "cover-letter.txt"))


def source_files(root, rel, source):
    """The files a SOURCE names, or a reason why it names none."""
    if source.startswith("cite:"):
        return [] if len(source) > 5 else "cite: names no source"
    if source.startswith("data/"):
        path = os.path.join(root, "Documentation", source)
    elif source.startswith("file:"):
        path = os.path.join(root, source[5:])
        if page_of(root, path) and os.path.abspath(path) != os.path.abspath(os.path.join(root, rel)):
            return "%s is another page: name where its number comes from" % source[5:]
    else:
        return "the source '%s' is none of data/PATH, file:PATH, cite:WHERE" % source
    if os.path.isfile(path):
        return [path]
    if os.path.isdir(path):
        return sorted(os.path.join(d, f) for d, _, fs in os.walk(path) for f in fs)
    return "no file or directory %s" % os.path.relpath(path, root)


def check_numbers(root, rel, lines, fact_values, table_lines, err):
    """Every number of every block of a page has its source.

    fact_values(data line) gives the values of a data line's facts (or
    None when the line is wrong, which the data check reports);
    table_lines is the set of line indices that docs-table tables cover.
    """
    markdown = rel.endswith(".md")
    if rel.endswith(".rst"):
        hidden(rel, lines, err)
    for first, end, claim_lines in blocks(lines, markdown):
        if first in table_lines:
            continue
        said = Counter()
        where = {}
        for k in range(first, end):
            for num in numbers_in(lines[k]):
                said[num] += 1
                where.setdefault(num, k + 1)
        given = Counter()
        for c in claim_lines:
            m = marker(lines[c])
            if m is None:
                for v in fact_values(lines[c]) or []:
                    for num in numbers_in(v):
                        if said[num] > given[num]:
                            given[num] += 1
                continue
            source, nums = m
            if not nums:
                err("%s:%d" % (rel, c + 1), "a numbers line without numbers "
                    "(.. numbers: SOURCE: N N ...)")
                continue
            files = source_files(root, rel, source)
            if isinstance(files, str):
                err("%s:%d" % (rel, c + 1), files)
                continue
            for num in nums:
                if not NUMBER.fullmatch(num):
                    err("%s:%d" % (rel, c + 1), "'%s' is not a number" % num)
                    continue
                if files and not number_in_file(num, files):
                    err("%s:%d" % (rel, c + 1), "%s is not in %s" % (num, source))
                given[num] += 1
        for num, k in sorted((said - given).items()):
            err("%s:%d" % (rel, where[num]),
                "%s (%s time%s) has no source: name it on a '.. numbers:' line "
                "before this block, or quote it from a '.. data:' fact"
                % (num, k, "s" if k > 1 else ""))
        for num, k in sorted((given - said).items()):
            err("%s:%d" % (rel, claim_lines[0] + 1 if claim_lines else first + 1),
                "%s is listed %s more time%s than the block says it"
                % (num, k, "s" if k > 1 else ""))


def hidden(rel, lines, err):
    """A comment line (numbers or data) followed by a block indented more
    than itself takes that block into the comment: reStructuredText would
    not show it."""
    for k, ln in enumerate(lines):
        if not (MARKER.match(ln) or DATA.match(ln)):
            continue
        j = k + 1
        while j < len(lines) and (not lines[j].strip() or MARKER.match(lines[j])
                                  or DATA.match(lines[j])):
            j += 1
        if j < len(lines) and indent(lines[j]) > indent(ln):
            err("%s:%d" % (rel, k + 1), "this comment line hides the indented "
                "block after it from the rendered page: put it before the "
                "paragraph that introduces the block, or indent it as the block")


def mutants(lines, markdown=False):
    """(line index, mutated line) for each number of a page's blocks: its
    last digit changed."""
    for first, end, _ in blocks(lines, markdown):
        for k in range(first, end):
            ln = lines[k]
            for m in NUMBER.finditer(claims_text(ln)):
                pos = m.end() - 1
                yield k, ln[:pos] + str((int(ln[pos]) + 1) % 10) + ln[pos + 1:]
