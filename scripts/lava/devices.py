#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Render the LAVA device dictionaries of configs/lava for each job.

  devices.py --templates DIR --jobs DIR --dicts DIR (--write | --check)

A LAVA server hands its dispatcher a device's configuration rendered from
the device dictionary (DICTS/NAME.jinja2, which extends a device-type
template) and LAVA's device-type templates (TEMPLATES: lava-server's
/usr/share/lava-server/device-types), with the job's "context" as the
template's variables.  This does the same, as lava-server does it (a
sandboxed Jinja2 environment, trim_blocks, the dictionaries first on the
search path), for each job JOBS/JOB.yaml with the dictionary whose device
type is the job's, and writes DICTS/device-JOB.yaml (--write) or fails
when the committed one differs (--check).  lava-run takes that file as
--device.
"""

import argparse
import difflib
import glob
import os
import re
import sys

import jinja2
import jinja2.sandbox
import yaml

EXTENDS = re.compile(r"{%-?\s*extends\s+['\"]([^'\"]+)\.jinja2['\"]\s*-?%}")


def dictionaries(path):
    """{device type: dictionary name} of the DICTS/*.jinja2 files."""
    out = {}
    for f in sorted(glob.glob(os.path.join(path, '*.jinja2'))):
        with open(f) as fh:
            m = EXTENDS.search(fh.read())
        if not m:
            sys.exit('devices.py: %s extends no device-type template' % f)
        name = os.path.basename(f)[:-len('.jinja2')]
        if m.group(1) in out:
            sys.exit('devices.py: %s and %s are both %s: keep one per device type'
                     % (out[m.group(1)], name, m.group(1)))
        out[m.group(1)] = name
    return out


def render(templates, dicts, name, context):
    env = jinja2.sandbox.SandboxedEnvironment(
        loader=jinja2.FileSystemLoader([dicts, templates]),
        autoescape=False, trim_blocks=True)
    text = env.get_template('%s.jinja2' % name).render(**context)
    yaml.safe_load(text)  # what the dispatcher will parse
    return text


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--templates', required=True)
    ap.add_argument('--jobs', required=True)
    ap.add_argument('--dicts', required=True)
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument('--write', action='store_true')
    g.add_argument('--check', action='store_true')
    a = ap.parse_args()

    if not os.path.isfile(os.path.join(a.templates, 'base.jinja2')):
        sys.exit('devices.py: no LAVA device-type templates in %s' % a.templates)
    types = dictionaries(a.dicts)
    jobs = sorted(glob.glob(os.path.join(a.jobs, '*.yaml')))
    if not jobs:
        sys.exit('devices.py: no jobs in %s: run "make lava" first' % a.jobs)
    bad = 0
    for jpath in jobs:
        with open(jpath) as f:
            job = yaml.safe_load(f)
        dtype = job['device_type']
        if dtype not in types:
            sys.exit('devices.py: %s wants device type %s, and no %s/*.jinja2 '
                     'extends %s.jinja2' % (jpath, dtype, a.dicts, dtype))
        job_name = os.path.basename(jpath)[:-len('.yaml')]
        out = os.path.join(a.dicts, 'device-%s.yaml' % job_name)
        head = ('# %s.jinja2 rendered by LAVA\'s %s.jinja2 with the context of '
                '%s.yaml\n# (scripts/lava/devices.py; "make lava-devices" '
                'writes it again).\n' % (types[dtype], dtype, job_name))
        text = head + render(a.templates, a.dicts, types[dtype],
                             job.get('context', {}))
        if a.write:
            with open(out, 'w') as f:
                f.write(text)
            print('devices.py: wrote %s' % out)
            continue
        try:
            with open(out) as f:
                old = f.read()
        except FileNotFoundError:
            old = ''
        if old != text:
            bad += 1
            print('devices.py: %s is not what %s.jinja2 renders to for %s.yaml '
                  '("make lava-devices" writes it; review the diff):'
                  % (out, types[dtype], job_name))
            sys.stdout.writelines(difflib.unified_diff(
                old.splitlines(True), text.splitlines(True), out, 'rendered'))
        else:
            print('devices.py: %s matches its rendering' % out)
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
