/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading and writing procfs, sysfs and debugfs knobs from kselftests:
 * whole-file reads, single write(2) calls that report the kernel's errno,
 * and writes done by a forked child with other credentials (the nobody
 * user, or uid 0 without capabilities).
 *
 * Every function returns a negative errno on failure, never sets a global.
 * Header-only so that any target can use it with one -I.
 */
#ifndef KNOB_IO_H
#define KNOB_IO_H

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/capability.h>

#define KIO_NOBODY	65534

/* Read the whole of @path into @buf (NUL-terminated): its length or -errno. */
static inline ssize_t kio_read(const char *path, char *buf, size_t size)
{
	size_t len = 0;
	ssize_t n;
	int fd;

	if (!size)
		return -EINVAL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (len < size - 1) {
		n = read(fd, buf + len, size - 1 - len);
		if (n < 0) {
			n = -errno;
			close(fd);
			return n;
		}
		if (!n)
			break;
		len += n;
	}
	close(fd);
	buf[len] = '\0';
	return len;
}

/* The first line of @path, without its newline: 0 or -errno. */
static inline int kio_read_line(const char *path, char *buf, size_t size)
{
	ssize_t n = kio_read(path, buf, size);

	if (n < 0)
		return n;
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/*
 * @path holds one decimal number, read into @sval (signed) or, when that
 * is NULL, into @uval: 0 or -errno.
 */
static inline int kio_read_num(const char *path, long *sval,
			       unsigned long *uval)
{
	char buf[64], *end;
	int ret;

	ret = kio_read_line(path, buf, sizeof(buf));
	if (ret)
		return ret;
	errno = 0;
	if (sval)
		*sval = strtol(buf, &end, 10);
	else
		*uval = strtoul(buf, &end, 10);
	if (errno || end == buf || *end)
		return -EINVAL;
	return 0;
}

static inline int kio_read_ul(const char *path, unsigned long *val)
{
	return kio_read_num(path, NULL, val);
}

static inline int kio_read_l(const char *path, long *val)
{
	return kio_read_num(path, val, NULL);
}

/* @cpu's cpu_capacity, or 1024 where there is no such file (x86) */
static inline long kio_cpu_capacity(int cpu)
{
	char path[64];
	long cap;

	snprintf(path, sizeof(path),
		 "/sys/devices/system/cpu/cpu%d/cpu_capacity", cpu);
	return kio_read_l(path, &cap) ? 1024 : cap;
}

/* /proc/schedstat: "cpuN yld_count 0 sched_count sched_goidle ..." */
#define KIO_SCHEDSTAT_GOIDLE	4

/*
 * Counter @field of @cpu's line in /proc/schedstat (field 1 is the first
 * after "cpuN"), or of its line for the domain @domain ("domain0": field
 * 1 is the domain's CPU mask) when @domain is not NULL: the value, or -1.
 */
static inline long long kio_schedstat(int cpu, const char *domain, int field)
{
	static char buf[1 << 16];
	char want[16], *line, *save = NULL;
	bool in_cpu = false;

	if (kio_read("/proc/schedstat", buf, sizeof(buf)) < 0)
		return -1;
	snprintf(want, sizeof(want), "cpu%d", cpu);
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *tok, *tsave = NULL;
		int i;

		tok = strtok_r(line, " ", &tsave);
		if (!tok)
			continue;
		if (!strncmp(tok, "cpu", 3))
			in_cpu = !strcmp(tok, want);
		if (!in_cpu || strcmp(tok, domain ? domain : want))
			continue;
		for (i = 0; tok && i < field; i++)
			tok = strtok_r(NULL, " ", &tsave);
		return tok ? strtoll(tok, NULL, 10) : -1;
	}
	return -1;
}

/*
 * A scheduler feature in @path (/sys/kernel/debug/sched/features): 1 when
 * it reads NAME, 0 when it reads NO_NAME, -ENOENT when it is not listed,
 * or -errno of the read.
 */
static inline int kio_sched_feature(const char *path, const char *name)
{
	char buf[8192], *tok, *save;
	ssize_t n;

	n = kio_read(path, buf, sizeof(buf));
	if (n < 0)
		return n;
	for (tok = strtok_r(buf, " \n", &save); tok;
	     tok = strtok_r(NULL, " \n", &save)) {
		if (!strcmp(tok, name))
			return 1;
		if (!strncmp(tok, "NO_", 3) && !strcmp(tok + 3, name))
			return 0;
	}
	return -ENOENT;
}

/*
 * Open @path and write the @len bytes of @data (which may hold NUL bytes)
 * in one write(2) call: the count the kernel returned, or -errno of the
 * open or the write.
 */
static inline ssize_t kio_write(const char *path, const void *data, size_t len)
{
	ssize_t n;
	int fd;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, data, len);
	if (n < 0)
		n = -errno;
	close(fd);
	return n;
}

/* Write @data whole in one call: 0, -EIO on a short write, or -errno. */
static inline int kio_write_all(const char *path, const void *data, size_t len)
{
	ssize_t n = kio_write(path, data, len);

	if (n < 0)
		return n;
	return (size_t)n == len ? 0 : -EIO;
}

static inline int kio_write_str(const char *path, const char *s)
{
	return kio_write_all(path, s, strlen(s));
}

/*
 * Empty @path by opening it for writing with O_TRUNC, which is how
 * tracefs empties its "trace" buffer: 0 or -errno.
 */
static inline int kio_truncate(const char *path)
{
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

/*
 * The records of the kernel log (/dev/kmsg, from its start) holding any of
 * @needles (NULL-terminated): their count, or -errno.  The first line of
 * the first such record goes to @first (@len bytes) unless @first is NULL.
 */
static inline int kio_kmsg_count(const char *const *needles, char *first,
				 size_t len)
{
	const char *const *w;
	char rec[2048];
	int fd, n = 0;
	ssize_t got;

	fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	for (;;) {
		got = read(fd, rec, sizeof(rec) - 1);
		if (got < 0 && errno == EPIPE)	/* overwritten meanwhile */
			continue;
		if (got <= 0)
			break;
		rec[got] = '\0';
		for (w = needles; *w && !strstr(rec, *w); w++)
			;
		if (!*w)
			continue;
		if (!n++ && first && len) {
			size_t m = strcspn(rec, "\n");

			if (m >= len)
				m = len - 1;
			memcpy(first, rec, m);
			first[m] = '\0';
		}
	}
	close(fd);
	return n;
}

static inline int kio_write_ul(const char *path, unsigned long val)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%lu", val);
	return kio_write_str(path, buf);
}

enum kio_cred {
	KIO_AS_NOBODY,		/* uid/gid 65534, no groups, no capabilities */
	KIO_AS_ROOT_NO_CAPS,	/* uid 0 with every capability dropped */
};

/* What a write by other credentials came to. */
struct kio_result {
	int setup_err;		/* the credentials could not be set up */
	int open_err;		/* errno of open(), 0 if it succeeded */
	int write_err;		/* errno of write(), 0 if it returned >= 0 */
	ssize_t written;	/* what write() returned when it did not fail */
};

static inline int kio_drop_caps(void)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2];

	memset(data, 0, sizeof(data));
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) && errno != EINVAL)
		return -errno;
	if (syscall(SYS_capset, &hdr, data))
		return -errno;
	/* Check that the effective set is now empty */
	if (syscall(SYS_capget, &hdr, data))
		return -errno;
	return data[0].effective || data[1].effective ? -EPERM : 0;
}

static inline int kio_become(enum kio_cred cred)
{
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -errno;
	if (cred == KIO_AS_NOBODY) {
		if (setgroups(0, NULL) ||
		    setresgid(KIO_NOBODY, KIO_NOBODY, KIO_NOBODY) ||
		    setresuid(KIO_NOBODY, KIO_NOBODY, KIO_NOBODY))
			return -errno;
	}
	return kio_drop_caps();
}

/*
 * In a forked child with the credentials @cred, open @path for writing and
 * write @data in one call. 0 with @res filled in, or -errno when the child
 * could not be run.
 */
static inline int kio_write_as(enum kio_cred cred, const char *path,
			       const void *data, size_t len,
			       struct kio_result *res)
{
	int pipefd[2], status, fd;
	ssize_t n;
	pid_t pid;

	memset(res, 0, sizeof(*res));
	if (pipe(pipefd))
		return -errno;
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		close(pipefd[0]);
		close(pipefd[1]);
		return -errno;
	}
	if (!pid) {
		struct kio_result r = { 0 };

		close(pipefd[0]);
		r.setup_err = -kio_become(cred);
		if (!r.setup_err) {
			fd = open(path, O_WRONLY | O_CLOEXEC);
			if (fd < 0) {
				r.open_err = errno;
			} else {
				r.written = write(fd, data, len);
				if (r.written < 0)
					r.write_err = errno;
				close(fd);
			}
		}
		n = write(pipefd[1], &r, sizeof(r));
		_exit(n == sizeof(r) ? 0 : 1);
	}
	close(pipefd[1]);
	n = read(pipefd[0], res, sizeof(*res));
	close(pipefd[0]);
	if (waitpid(pid, &status, 0) != pid)
		return -errno;
	if (n != sizeof(*res) || !WIFEXITED(status) || WEXITSTATUS(status))
		return -ECHILD;
	return 0;
}

/*
 * Whether a write by other credentials was refused by a permission check:
 * at open() by the file mode, or at write() by the handler.
 */
static inline bool kio_refused(const struct kio_result *r)
{
	if (r->open_err)
		return r->open_err == EACCES || r->open_err == EPERM;
	return r->write_err == EACCES || r->write_err == EPERM;
}

#endif /* KNOB_IO_H */
