#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Write the project's LAVA job definitions.

  jobs.py --url URL --out DIR --series REV
          --qemu-x86_64 "QEMU ARGS" --qemu-arm64 "QEMU ARGS" [--cpus N]

Four jobs, one kselftest run each, every test case a LAVA result:

  hikey960.yaml     hi960-hikey: fastboot flashes boot (grub, the kernel,
                    the device tree) and system (the lab's root file
                    system), grub boots the installed kernel, and Linaro's
                    kselftest test definition fetches the kselftests in
                    the kernel's layout (kselftest.tar.xz) and runs them.
  sandybridge.yaml  x86: iPXE loads the kernel and the project's ramdisk
                    over TFTP; the ramdisk runs the kselftests at boot.
  qemu-x86_64.yaml, qemu-arm64.yaml
                    qemu: the emulated boards, with the QEMU options of
                    scripts/boards/*.sh, no KVM, the same ramdisk.

The ramdisk has no shell prompt: the jobs read the results with a LAVA
monitor over the "KSFT-CASE result id" lines of scripts/lava/ktap-cases.
Every artifact URL is URL/<job>/<file>.
"""

import argparse
import os
import shlex
import sys

import yaml

# The ramdisk's init prints these around the command (scripts/guest/init).
MARK = '@@schedstack-vm@@'
# One line per result (scripts/lava/ktap-cases); console lines end in
# \r\r\n, and the id must be whole before it matches: up to the \r.
CASE_PATTERN = r'KSFT-CASE (?P<result>pass|fail|skip) (?P<test_case_id>[^\r\n]+?)\r'
# kselftest.sh runs the tests of this directory when the root file system
# has it, else those of TESTPROG_URL: a path no root file system has, so
# that the project's tests run, not those a distribution ships.
KSELFTEST_PATH = '/opt/kselftests/schedstack'
TEST_DEFINITIONS = 'https://github.com/Linaro/test-definitions.git'
# The longest per-test timeout of selftests/*/settings is 450 s: the
# monitor waits that long (and a margin) for the next result.
MONITOR_WAIT_MIN = 10


def monitor_test(minutes):
    return {'test': {
        'timeout': {'minutes': minutes},
        'monitors': [{
            'name': 'kselftest',
            'start': MARK + ' begin',
            'end': MARK + ' end',
            'pattern': CASE_PATTERN,
        }],
    }}


def base(device_type, name, series, job_minutes, extra_timeouts=None):
    timeouts = {
        'job': {'minutes': job_minutes},
        'action': {'minutes': 10},
        'connection': {'minutes': 2},
        'connections': {'lava-test-monitor': {'minutes': MONITOR_WAIT_MIN}},
    }
    if extra_timeouts:
        timeouts.update(extra_timeouts)
    return {
        'device_type': device_type,
        'job_name': name,
        'timeouts': timeouts,
        'priority': 'medium',
        'visibility': 'public',
        'metadata': {
            'project': 'schedstack',
            'series': series,
            'tests': 'kselftest',
        },
    }


def qemu_options(args):
    """-machine/-cpu/-dtb of a board's QEMU arguments, the rest as is."""
    words = shlex.split(args)
    opts = {'machine': None, 'cpu': None, 'dtb': None, 'rest': []}
    i = 0
    while i < len(words):
        w = words[i]
        if w in ('-machine', '-M', '-cpu', '-dtb') and i + 1 < len(words):
            key = {'-M': 'machine', '-machine': 'machine',
                   '-cpu': 'cpu', '-dtb': 'dtb'}[w]
            opts[key] = words[i + 1]
            i += 2
            continue
        opts['rest'].append(w)
        i += 1
    return opts


def qemu_job(arch, board, args, cpus, url, series):
    o = qemu_options(args)
    if not o['machine'] or not o['cpu']:
        sys.exit('jobs.py: the %s board gives no -machine and -cpu: %r'
                 % (board, args))
    lava_arch = {'x86_64': 'amd64', 'arm64': 'arm64'}[arch]
    # scripts/vm's console and command line; -no-reboot: the ramdisk ends
    # with "reboot -f" and QEMU must stop there, as under scripts/vm.
    console = {'x86_64': 'ttyS0 no_timer_check', 'arm64': 'ttyAMA0'}[arch]
    append = 'console=%s panic=-1 oops=panic printk.time=1' % console
    kernel = {'x86_64': 'bzImage', 'arm64': 'Image'}[arch]
    ctx = {'arch': lava_arch, 'no_kvm': True, 'memory': 512,
           'netdevice': 'user'}
    extra = ['-smp %d' % cpus, '-no-reboot'] + o['rest']
    if arch == 'arm64':
        # qemu.jinja2 puts -cpu and -machine of the context on arm.
        ctx['machine'] = o['machine']
        ctx['cpu'] = o['cpu']
    else:
        # ... and none on amd64 without KVM: give them here.
        extra = ['-machine %s' % o['machine'], '-cpu %s' % o['cpu']] + extra
    ctx['extra_options'] = extra
    images = {
        'kernel': {
            'url': '%s/qemu-%s/%s' % (url, arch, kernel),
            'image_arg': '-kernel {kernel} -append "%s"' % append,
        },
        'ramdisk': {
            'url': '%s/qemu-%s/ramdisk.cpio.gz' % (url, arch),
            'image_arg': '-initrd {ramdisk}',
        },
    }
    if o['dtb']:
        images['dtb'] = {
            'url': '%s/qemu-%s/%s' % (url, arch, os.path.basename(o['dtb'])),
            'image_arg': '-dtb {dtb}',
        }
    job = base('qemu', 'schedstack kselftests: emulated %s (qemu-%s, %d CPUs, TCG)'
               % (board, arch, cpus), series, 40)
    job['context'] = ctx
    job['actions'] = [
        {'deploy': {'to': 'tmpfs', 'timeout': {'minutes': 5}, 'images': images}},
        {'boot': {'method': 'qemu', 'media': 'tmpfs', 'timeout': {'minutes': 5}}},
        monitor_test(30),
    ]
    return job


def sandybridge_job(url, series):
    job = base('x86', 'schedstack kselftests: Sandy Bridge PC (x86, iPXE ramdisk)',
               series, 60)
    # x86.jinja2 takes the kernel's extra arguments from this.
    job['context'] = {'extra_kernel_args': 'panic=-1 oops=panic printk.time=1'}
    job['actions'] = [
        {'deploy': {
            'to': 'tftp',
            'timeout': {'minutes': 10},
            'kernel': {'url': '%s/sandybridge/bzImage' % url},
            'ramdisk': {'url': '%s/sandybridge/ramdisk.cpio.gz' % url},
            'os': 'oe',
        }},
        {'boot': {'method': 'ipxe', 'commands': 'ramdisk',
                  'timeout': {'minutes': 10}}},
        monitor_test(40),
    ]
    return job


def hikey960_job(url, rootfs_url, series):
    job = base('hi960-hikey', 'schedstack kselftests: HiKey960 (hi960-hikey, fastboot)',
               series, 120)
    job['context'] = {'test_character_delay': 10}
    job['actions'] = [
        {'deploy': {
            'to': 'fastboot',
            'timeout': {'minutes': 40},
            'images': {
                'boot': {'url': '%s/hikey960/boot.img' % url,
                         'reboot': 'hard-reset'},
                # the lab's root file system; LAVA adds its test shell
                'system': {'url': rootfs_url, 'apply-overlay': True},
            },
            'os': 'debian',
        }},
        {'boot': {
            'method': 'grub',
            'commands': 'installed',
            'auto_login': {'login_prompt': 'login:', 'username': 'root'},
            'prompts': ['root@(.*):[/~]#'],
            'timeout': {'minutes': 15},
        }},
        {'test': {
            'timeout': {'minutes': 60},
            'definitions': [{
                'repository': TEST_DEFINITIONS,
                'from': 'git',
                'path': 'automated/linux/kselftest/kselftest.yaml',
                'name': 'kselftest',
                'parameters': {
                    # empty: every test of kselftest-list.txt
                    'TST_CMDFILES': '',
                    # not on the root file system: kselftest.sh fetches
                    # TESTPROG_URL and runs its run_kselftest.sh
                    'KSELFTEST_PATH': KSELFTEST_PATH,
                    'TESTPROG': 'kselftest.tar.xz',
                    'TESTPROG_URL': '%s/hikey960/kselftest.tar.xz' % url,
                    'SKIPFILE': '',
                    'BOARD': 'hi960-hikey',
                },
            }],
        }},
    ]
    return job


def write(path, job, what):
    head = ('# LAVA job: %s.\n# Written by scripts/lava/jobs.py ("make lava");'
            ' Documentation/lava.rst tells how to submit it.\n' % what)
    with open(path, 'w') as f:
        f.write(head)
        yaml.safe_dump(job, f, sort_keys=False, default_flow_style=False,
                       width=100)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--url', required=True, help='artifact base URL')
    ap.add_argument('--rootfs-url', help="the HiKey960's root file system "
                    'image (default URL/hikey960/rootfs.img)')
    ap.add_argument('--out', required=True)
    ap.add_argument('--series', default='unknown')
    ap.add_argument('--qemu-x86_64', required=True, dest='qx86',
                    help='QEMU arguments of the sandybridge board')
    ap.add_argument('--qemu-arm64', required=True, dest='qarm',
                    help='QEMU arguments of the hikey960 board')
    ap.add_argument('--cpus', type=int, default=4)
    a = ap.parse_args()
    url = a.url.rstrip('/')
    rootfs = a.rootfs_url or '%s/hikey960/rootfs.img' % url
    os.makedirs(a.out, exist_ok=True)
    jobs = [
        ('hikey960.yaml', hikey960_job(url, rootfs, a.series),
         'the kselftests on a HiKey960'),
        ('sandybridge.yaml', sandybridge_job(url, a.series),
         'the kselftests on a Sandy Bridge PC'),
        ('qemu-x86_64.yaml', qemu_job('x86_64', 'sandybridge', a.qx86, a.cpus,
                                      url, a.series),
         'the kselftests on the emulated Sandy Bridge board'),
        ('qemu-arm64.yaml', qemu_job('arm64', 'hikey960', a.qarm, a.cpus,
                                     url, a.series),
         'the kselftests on the emulated HiKey960 board'),
    ]
    for name, job, what in jobs:
        write(os.path.join(a.out, name), job, what)
    print('jobs.py: %s in %s (artifacts from %s)'
          % (' '.join(n for n, _, _ in jobs), a.out, url))


if __name__ == '__main__':
    main()
