// SPDX-License-Identifier: GPL-2.0
/*
 * Bad-input matrix for every run-time knob of the series:
 *
 *   kernel.sched_pelt_multiplier           sysctl, proc_douintvec: 1, 2, 4
 *   kernel.sched_thermal_decay_ms          sysctl, proc_douintvec_minmax: 0..32768
 *   STEAL in /sys/kernel/debug/sched/features   sched_feat_write(): [NO_]STEAL
 *   policy<N>/schedutil/rate_limit_us, up_rate_limit_us, down_rate_limit_us
 *                                          sysfs, kstrtouint: 0..UINT_MAX
 *   policy<N>/schedutil/fast_ramp_up       sysfs, kstrtouint: 0, 1
 *   intel_pstate/fast_ramp_up              sysfs, kstrtouint: 0, 1
 *
 * plus the read-only debugfs views thermal_pressure and steal.
 *
 * For each knob: the good values read back; a common list of bad values
 * (negative, overflow, trailing junk, words, 4 KiB strings, NUL bytes,
 * white space only) and the knob's out-of-range values are refused with
 * EINVAL and leave the file (and its sibling tunables) exactly as it was;
 * an empty write changes nothing, also while another task writes the knob;
 * the nobody user cannot write; uid 0 without CAP_SYS_ADMIN cannot write a
 * sysctl, and can write the sysfs and debugfs knobs, whose only protection
 * is their mode (0644, root's). Knobs that are absent SKIP with the reason.
 *
 * The three parsers behind these files do not accept the same spellings of
 * a value, and the matrix asserts each one's rules (see forms[] below):
 *
 *  SYSCTL   proc_douintvec*(): leading white space (isspace()) is skipped;
 *           the number is parsed with base 0 (0x1f and 017 are numbers);
 *           right after it only ' ', '\t' or '\n' may follow, and whatever
 *           comes after that white space is ignored ("2 junk" sets 2); no
 *           sign is allowed ("-0" and "+2" are refused); at most 21
 *           characters of number; only the first 4095 bytes are looked at.
 *  SYSFS    kstrtouint(buf, 10): base 10 only, an optional leading '+',
 *           one optional trailing '\n', nothing else; the attribute gets
 *           the write as a C string, so bytes after a NUL are not seen.
 *  FEATURE  sched_feat_write(): at most 63 bytes are taken (the write
 *           returns 63 for a longer one), then strstrip() and an exact
 *           match of "NAME" or "NO_NAME"; also a C string.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/*
 * v6.12's kselftest_harness.h is not -Wextra clean: __timeout_handler() has
 * an unused parameter, and the wrapper that TEST_F() expands to keeps a
 * pid across setjmp() (-Wclobbered, reported where TEST_F() is used).
 */
#pragma GCC diagnostic ignored "-Wclobbered"
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "kselftest_harness.h"
#pragma GCC diagnostic pop
#include "knob_io.h"

#define PELT_PATH	"/proc/sys/kernel/sched_pelt_multiplier"
#define DECAY_PATH	"/proc/sys/kernel/sched_thermal_decay_ms"
#define FEATURES_PATH	"/sys/kernel/debug/sched/features"
#define DEBUG_SCHED	"/sys/kernel/debug/sched"
#define CPUFREQ_DIR	"/sys/devices/system/cpu/cpufreq"
#define PSTATE_DIR	"/sys/devices/system/cpu/intel_pstate"

#define MAX_INST	16	/* cpufreq policies */
#define VAL_LEN		64
#define RAW_LEN		8192	/* the features file is ~400 bytes */
#define BIG_LEN		4096	/* "a 4 KiB string" */
#define FEAT_MAX	63	/* sched_feat_write() takes that many bytes */
#define RACE_SECONDS	3.0
#define RACE_WRITES	20000

enum parser { SYSCTL, SYSFS, FEATURE, NR_PARSERS };
enum want { ACCEPT, REFUSE };

static const char * const parser_names[NR_PARSERS] = {
	"sysctl", "sysfs", "sched feature",
};

/* One file of a knob, and what to put back afterwards */
struct inst {
	char path[PATH_MAX];
	char saved[VAL_LEN];
	/* Other attributes a write of this one changes (rate_limit_us) */
	char comp_path[2][PATH_MAX];
	char comp_saved[2][VAL_LEN];
	int ncomp;
	/* Files a refused write must leave alone too */
	char watch_path[3][PATH_MAX];
	int nwatch;
};

struct knob_state {
	struct inst inst[MAX_INST];
	int n;
	/* Policies switched to schedutil for the test, to switch back */
	char gov_path[MAX_INST][PATH_MAX];
	char gov_old[MAX_INST][VAL_LEN];
	int ngov;
};

struct knob_desc;
typedef int (*find_fn)(const struct knob_desc *d, struct knob_state *st,
		       char *why, size_t len);

struct knob_desc {
	const char *name;
	enum parser parser;
	find_fn find;
	const char *file;		/* path, or attribute name for find */
	const char * const *good;	/* NULL-terminated, distinct */
	const char * const *out_of_range;
	const char * const *companions;	/* attribute names, NULL-terminated */
};

/* ---- reading a knob ---- */

/* "STEAL" or "NO_STEAL" from the features file, or -errno */
static int feature_get(const char *path, const char *feat, char *buf,
		       size_t len)
{
	int on = kio_sched_feature(path, feat);

	if (on < 0)
		return on;
	snprintf(buf, len, "%s%s", on ? "" : "NO_", feat);
	return 0;
}

/* The knob's value as it reads back (no trailing newline) */
static int value_get(const struct knob_desc *d, const char *path, char *buf,
		     size_t len)
{
	if (d->parser == FEATURE)
		return feature_get(path, "STEAL", buf, len);
	return kio_read_line(path, buf, len);
}

/* Put @value back, as a plain write */
static int value_set(const char *path, const char *value)
{
	return kio_write_str(path, value);
}

/* A good value other than @cur */
static const char *other_good(const struct knob_desc *d, const char *cur,
			      int k)
{
	int n = 0, i;

	while (d->good[n])
		n++;
	for (i = 0; i < n; i++) {
		const char *g = d->good[(k + i) % n];

		if (strcmp(g, cur))
			return g;
	}
	return d->good[0];
}

/* @data for a log line: escaped, and cut short when long */
static const char *show(const char *data, size_t len, char *out, size_t size)
{
	size_t i, o = 0;

	for (i = 0; i < len && o + 8 < size; i++) {
		unsigned char c = data[i];

		if (i == 24 && len > 32) {
			o += snprintf(out + o, size - o, "...");
			break;
		}
		if (c == '\n')
			o += snprintf(out + o, size - o, "\\n");
		else if (c == '\t')
			o += snprintf(out + o, size - o, "\\t");
		else if (c == '\0')
			o += snprintf(out + o, size - o, "\\0");
		else if (c < 0x20 || c >= 0x7f)
			o += snprintf(out + o, size - o, "\\x%02x", c);
		else
			out[o++] = c;
	}
	out[o] = '\0';
	return out;
}

/* ---- finding the knobs ---- */

static int find_file(const struct knob_desc *d, struct knob_state *st,
		     char *why, size_t len)
{
	if (access(d->file, F_OK)) {
		snprintf(why, len, "%s is missing: the kernel does not have %s",
			 d->file, d->name);
		return -ENOENT;
	}
	snprintf(st->inst[0].path, sizeof(st->inst[0].path), "%s", d->file);
	st->n = 1;
	return 0;
}

static int find_feature(const struct knob_desc *d, struct knob_state *st,
			char *why, size_t len)
{
	char v[VAL_LEN];

	if (access(DEBUG_SCHED, F_OK)) {
		snprintf(why, len, "%s is missing: debugfs not mounted or no CONFIG_SCHED_DEBUG",
			 DEBUG_SCHED);
		return -ENOENT;
	}
	if (feature_get(d->file, "STEAL", v, sizeof(v))) {
		snprintf(why, len, "no STEAL in %s: kernel without CONFIG_SCHED_STEAL",
			 d->file);
		return -ENOENT;
	}
	snprintf(st->inst[0].path, sizeof(st->inst[0].path), "%s", d->file);
	st->n = 1;
	return 0;
}

static void governors_restore(struct knob_state *st)
{
	while (st->ngov > 0) {
		st->ngov--;
		value_set(st->gov_path[st->ngov], st->gov_old[st->ngov]);
	}
}

/*
 * Run every active policy with schedutil; 0, or -errno with @why and every
 * governor put back.
 */
static int governors_schedutil(struct knob_state *st, char *dirs[MAX_INST],
			       int *ndirs, char *why, size_t len)
{
	char path[PATH_MAX], buf[VAL_LEN];
	struct dirent *de;
	int ret = 0;
	DIR *dir;

	*ndirs = 0;
	dir = opendir(CPUFREQ_DIR);
	if (!dir) {
		snprintf(why, len, "%s is missing: no cpufreq", CPUFREQ_DIR);
		return -ENOENT;
	}
	while ((de = readdir(dir)) && *ndirs < MAX_INST) {
		if (strncmp(de->d_name, "policy", 6))
			continue;
		/* An inactive policy (its CPUs offline) has no governor */
		snprintf(path, sizeof(path), CPUFREQ_DIR "/%.200s/affected_cpus",
			 de->d_name);
		if (kio_read_line(path, buf, sizeof(buf)) || !buf[0])
			continue;
		snprintf(path, sizeof(path), CPUFREQ_DIR "/%.200s/scaling_governor",
			 de->d_name);
		if (kio_read_line(path, buf, sizeof(buf)))
			continue;
		if (strcmp(buf, "schedutil")) {
			ret = value_set(path, "schedutil");
			if (ret) {
				snprintf(why, len, "%s: schedutil refused (%s): no CONFIG_CPU_FREQ_GOV_SCHEDUTIL?",
					 path, strerror(-ret));
				ret = -ENOENT;
				break;
			}
			snprintf(st->gov_path[st->ngov], PATH_MAX, "%s", path);
			snprintf(st->gov_old[st->ngov], VAL_LEN, "%s", buf);
			st->ngov++;
		}
		dirs[*ndirs] = strdup(de->d_name);
		if (!dirs[*ndirs]) {
			snprintf(why, len, "out of memory");
			ret = -ENOMEM;
			break;
		}
		(*ndirs)++;
	}
	closedir(dir);
	if (!ret && !*ndirs) {
		snprintf(why, len, "no active cpufreq policy in %s", CPUFREQ_DIR);
		ret = -ENOENT;
	}
	if (ret) {
		while (*ndirs > 0)
			free(dirs[--*ndirs]);
		governors_restore(st);
	}
	return ret;
}

static const char * const sugov_attrs[] = {
	"rate_limit_us", "up_rate_limit_us", "down_rate_limit_us", "fast_ramp_up",
};

/*
 * The schedutil tunables: per policy (policy<N>/schedutil/) when the
 * driver asks for per-policy governors, else the one global directory.
 */
static int find_sugov(const struct knob_desc *d, struct knob_state *st,
		      char *why, size_t len)
{
	char *dirs[MAX_INST], tun[PATH_MAX];
	int ndirs, i, c, ret;
	bool global = false;

	ret = governors_schedutil(st, dirs, &ndirs, why, len);
	if (ret)
		return ret;
	for (i = 0; i < ndirs && !global; i++) {
		struct inst *in = &st->inst[st->n];

		snprintf(tun, sizeof(tun), CPUFREQ_DIR "/%.64s/schedutil", dirs[i]);
		if (access(tun, F_OK)) {
			snprintf(tun, sizeof(tun), CPUFREQ_DIR "/schedutil");
			global = true;
		}
		snprintf(in->path, sizeof(in->path), "%.200s/%s", tun, d->file);
		if (access(in->path, F_OK)) {
			snprintf(why, len, "%s is missing: kernel without the schedutil ramp-up tunables",
				 in->path);
			ret = -ENOENT;
			break;
		}
		for (c = 0; c < 2 && d->companions && d->companions[c]; c++)
			snprintf(in->comp_path[c], PATH_MAX, "%.200s/%s", tun,
				 d->companions[c]);
		in->ncomp = c;
		for (c = 0; c < (int)ARRAY_SIZE(sugov_attrs); c++) {
			if (!strcmp(sugov_attrs[c], d->file))
				continue;
			snprintf(in->watch_path[in->nwatch++], PATH_MAX, "%.200s/%s",
				 tun, sugov_attrs[c]);
		}
		st->n++;
	}
	for (i = 0; i < ndirs; i++)
		free(dirs[i]);
	if (ret)
		governors_restore(st);
	return ret;
}

static int find_pstate(const struct knob_desc *d, struct knob_state *st,
		       char *why, size_t len)
{
	char status[VAL_LEN];

	if (kio_read_line(PSTATE_DIR "/status", status, sizeof(status))) {
		snprintf(why, len, "intel_pstate is not running (no %s/status; another cpufreq driver, as in QEMU)",
			 PSTATE_DIR);
		return -ENOENT;
	}
	if (access(d->file, F_OK)) {
		snprintf(why, len, "no %s: intel_pstate is %s%s, fast_ramp_up exists only in the active mode without HWP",
			 d->file, status,
			 access(PSTATE_DIR "/hwp_dynamic_boost", F_OK) ? "" : " with HWP");
		return -ENOENT;
	}
	return find_file(d, st, why, len);
}

/* ---- the knobs ---- */

static const char * const pelt_good[] = { "1", "2", "4", NULL };
static const char * const pelt_out[] = {
	"0", "3", "5", "6", "8", "16", "4294967295", NULL,
};

static const char * const decay_good[] = {
	"0", "1", "8", "250", "1000", "32767", "32768", NULL,
};
static const char * const decay_out[] = {
	"32769", "40000", "65536", "2147483648", "4294967295", NULL,
};

static const char * const steal_good[] = { "STEAL", "NO_STEAL", NULL };
/* Not the names of the feature */
static const char * const steal_out[] = {
	"steal", "Steal", "no_steal", "NO_steal", "STEAL_", "STEAL1",
	"NO_STEAL_", "NO_NO_STEAL", "NO_", "NO", "STEA", "STEALSTEAL",
	"STEAL NO_STEAL", "STEAL,NO_STEAL", "NO STEAL", "1", NULL,
};

static const char * const rate_good[] = {
	"0", "1", "2000", "100000", "4294967295", NULL,
};
static const char * const rate_out[] = { "4294967296", "8589934592", NULL };
static const char * const rate_comp[] = {
	"up_rate_limit_us", "down_rate_limit_us", NULL,
};

static const char * const switch_good[] = { "0", "1", NULL };
static const char * const switch_out[] = {
	"2", "10", "255", "256", "65537", "4294967295", NULL,
};

static const struct knob_desc pelt_knob = {
	.name = "kernel.sched_pelt_multiplier", .parser = SYSCTL,
	.find = find_file, .file = PELT_PATH,
	.good = pelt_good, .out_of_range = pelt_out,
};

static const struct knob_desc decay_knob = {
	.name = "kernel.sched_thermal_decay_ms", .parser = SYSCTL,
	.find = find_file, .file = DECAY_PATH,
	.good = decay_good, .out_of_range = decay_out,
};

static const struct knob_desc steal_knob = {
	.name = "the STEAL sched feature", .parser = FEATURE,
	.find = find_feature, .file = FEATURES_PATH,
	.good = steal_good, .out_of_range = steal_out,
};

/* Per-policy schedutil tunables */
#define SUGOV_KNOB(attr, g, o, c) {					\
	.name = "schedutil " attr, .parser = SYSFS, .find = find_sugov,	\
	.file = attr, .good = g, .out_of_range = o, .companions = c,	\
}

static const struct knob_desc rate_knob =
	SUGOV_KNOB("rate_limit_us", rate_good, rate_out, rate_comp);
static const struct knob_desc up_knob =
	SUGOV_KNOB("up_rate_limit_us", rate_good, rate_out, NULL);
static const struct knob_desc down_knob =
	SUGOV_KNOB("down_rate_limit_us", rate_good, rate_out, NULL);
static const struct knob_desc sugov_ramp_knob =
	SUGOV_KNOB("fast_ramp_up", switch_good, switch_out, NULL);

static const struct knob_desc pstate_ramp_knob = {
	.name = "intel_pstate fast_ramp_up", .parser = SYSFS,
	.find = find_pstate, .file = PSTATE_DIR "/fast_ramp_up",
	.good = switch_good, .out_of_range = switch_out,
};

/* ---- checks ---- */

/* Writes checked by the current test, for its summary line */
static int checked;

static void summary(const struct knob_desc *d, const struct knob_state *st)
{
	ksft_print_msg("%s: %d writes checked on %d file%s (%s%s)\n", d->name,
		       checked, st->n, st->n == 1 ? "" : "s", st->inst[0].path,
		       st->n > 1 ? ", ..." : "");
}

/*
 * Write @len bytes of @data in one call: it must fail with EINVAL, and the
 * file and the ones watched with it must read back byte for byte as before.
 */
static void expect_refused(struct __test_metadata *_metadata,
			   const struct inst *in, const char *data, size_t len,
			   const char *what)
{
	static char before[4][RAW_LEN], after[RAW_LEN];
	const char *path = in->path;
	char shown[128];
	ssize_t n;
	int w;

	ASSERT_LE(0, kio_read(path, before[0], sizeof(before[0])));
	for (w = 0; w < in->nwatch; w++)
		ASSERT_LE(0, kio_read(in->watch_path[w], before[w + 1], RAW_LEN));
	n = kio_write(path, data, len);
	checked++;
	show(data, len, shown, sizeof(shown));
	EXPECT_EQ(-EINVAL, n)
		TH_LOG("%s: \"%s\" (%zu bytes, %s): %s%s", path, shown, len,
		       what, n < 0 ? "failed with " : "accepted",
		       n < 0 ? strerror(-n) : "");
	ASSERT_LE(0, kio_read(path, after, sizeof(after)));
	EXPECT_STREQ(before[0], after)
		TH_LOG("%s changed by \"%s\" (%s)", path, shown, what);
	for (w = 0; w < in->nwatch; w++) {
		ASSERT_LE(0, kio_read(in->watch_path[w], after, sizeof(after)));
		EXPECT_STREQ(before[w + 1], after)
			TH_LOG("%s changed by \"%s\" written to %s (%s)",
			       in->watch_path[w], shown, path, what);
	}
}

/* The write takes @count bytes and the knob then reads @want */
static void expect_accepted(struct __test_metadata *_metadata,
			    const struct knob_desc *d, const char *path,
			    const char *data, size_t len, ssize_t count,
			    const char *want, const char *what)
{
	char shown[128], v[VAL_LEN];
	ssize_t n;

	n = kio_write(path, data, len);
	checked++;
	show(data, len, shown, sizeof(shown));
	EXPECT_EQ(count, n)
		TH_LOG("%s: \"%s\" (%zu bytes, %s): %s%s", path, shown, len,
		       what, n < 0 ? "refused with " : "short write",
		       n < 0 ? strerror(-n) : "");
	ASSERT_EQ(0, value_get(d, path, v, sizeof(v)));
	EXPECT_STREQ(want, v) TH_LOG("%s after \"%s\" (%s)", path, shown, what);
}

/* Set a known good value before a check */
static void preset(struct __test_metadata *_metadata, const char *path,
		   const char *value)
{
	ASSERT_EQ(0, value_set(path, value))
		TH_LOG("%s: cannot set the good value %s", path, value);
}

/* ---- the fixture ---- */

FIXTURE(knob) {
	struct knob_state st;
};

FIXTURE_VARIANT(knob) {
	const struct knob_desc *desc;
};

FIXTURE_VARIANT_ADD(knob, pelt_multiplier) { .desc = &pelt_knob };
FIXTURE_VARIANT_ADD(knob, thermal_decay_ms) { .desc = &decay_knob };
FIXTURE_VARIANT_ADD(knob, steal_feature) { .desc = &steal_knob };
FIXTURE_VARIANT_ADD(knob, sugov_rate_limit_us) { .desc = &rate_knob };
FIXTURE_VARIANT_ADD(knob, sugov_up_rate_limit_us) { .desc = &up_knob };
FIXTURE_VARIANT_ADD(knob, sugov_down_rate_limit_us) { .desc = &down_knob };
FIXTURE_VARIANT_ADD(knob, sugov_fast_ramp_up) { .desc = &sugov_ramp_knob };
FIXTURE_VARIANT_ADD(knob, pstate_fast_ramp_up) { .desc = &pstate_ramp_knob };

FIXTURE_SETUP(knob)
{
	const struct knob_desc *d = variant->desc;
	struct knob_state *st = &self->st;
	char why[512];
	int i, c;

	memset(st, 0, sizeof(*st));
	if (geteuid())
		SKIP(return, "must run as root");
	if (d->find(d, st, why, sizeof(why)))
		SKIP(return, "%s", why);
	for (i = 0; i < st->n; i++) {
		struct inst *in = &st->inst[i];

		ASSERT_EQ(0, value_get(d, in->path, in->saved, sizeof(in->saved)))
			governors_restore(st);
		for (c = 0; c < in->ncomp; c++)
			ASSERT_EQ(0, kio_read_line(in->comp_path[c], in->comp_saved[c],
						   VAL_LEN))
				governors_restore(st);
	}
}

FIXTURE_TEARDOWN(knob)
{
	struct knob_state *st = &self->st;
	int i, c;

	for (i = 0; i < st->n; i++) {
		struct inst *in = &st->inst[i];

		if (!in->saved[0])
			continue;
		EXPECT_EQ(0, value_set(in->path, in->saved))
			TH_LOG("cannot restore %s to %s", in->path, in->saved);
		for (c = 0; c < in->ncomp; c++)
			EXPECT_EQ(0, value_set(in->comp_path[c], in->comp_saved[c]));
	}
	governors_restore(st);
}

/*
 * Every good value, in turn, reads back as written; with one file per
 * cpufreq policy, the other policies' files do not move.
 */
TEST_F(knob, good_values)
{
	const struct knob_desc *d = variant->desc;
	static char others[MAX_INST][RAW_LEN], now[RAW_LEN];
	int i, j, k, n = 0;

	while (d->good[n])
		n++;
	for (i = 0; i < self->st.n; i++) {
		const struct inst *in = &self->st.inst[i];
		const char *path = in->path;

		for (j = 0; j < self->st.n; j++)
			ASSERT_LE(0, kio_read(self->st.inst[j].path, others[j], RAW_LEN));
		/* Forwards, backwards, forwards: the turns repeat a value */
		for (k = 0; k < 3 * n; k++) {
			int g = k < n ? k : k < 2 * n ? 2 * n - 1 - k : (k - 2 * n);

			expect_accepted(_metadata, d, path, d->good[g],
					strlen(d->good[g]), strlen(d->good[g]),
					d->good[g], "good value");
		}
		for (j = 0; j < self->st.n; j++) {
			if (j == i)
				continue;
			ASSERT_LE(0, kio_read(self->st.inst[j].path, now, sizeof(now)));
			EXPECT_STREQ(others[j], now)
				TH_LOG("%s changed by writes to %s",
				       self->st.inst[j].path, path);
		}
	}
	summary(d, &self->st);
}

/*
 * A good value G with something around it: which spellings each parser
 * takes. ACCEPT means the write returns its full length and G reads back;
 * REFUSE means EINVAL and nothing changed.
 */
struct form {
	const char *name;
	const char *pre;
	size_t prelen;
	const char *post;
	size_t postlen;
	enum want want[NR_PARSERS];	/* SYSCTL, SYSFS, FEATURE */
};

#define B(s)	s, sizeof(s) - 1

static const struct form forms[] = {
	{ "plain",		B(""),	   B(""),	{ ACCEPT, ACCEPT, ACCEPT } },
	{ "newline",		B(""),	   B("\n"),	{ ACCEPT, ACCEPT, ACCEPT } },
	/* kstrto*() allow exactly one trailing '\n' and nothing else */
	{ "two newlines",	B(""),	   B("\n\n"),	{ ACCEPT, REFUSE, ACCEPT } },
	{ "trailing space",	B(""),	   B(" "),	{ ACCEPT, REFUSE, ACCEPT } },
	{ "trailing tab",	B(""),	   B("\t"),	{ ACCEPT, REFUSE, ACCEPT } },
	{ "space newline",	B(""),	   B(" \n"),	{ ACCEPT, REFUSE, ACCEPT } },
	{ "leading space",	B(" "),	   B(""),	{ ACCEPT, REFUSE, ACCEPT } },
	{ "leading newline",	B("\n"),   B(""),	{ ACCEPT, REFUSE, ACCEPT } },
	{ "tab around",		B("\t"),   B("\t\n"),	{ ACCEPT, REFUSE, ACCEPT } },
	/* isspace() before the number, but not right after it */
	{ "leading \\v\\f\\r",	B("\v\f\r"), B(""),	{ ACCEPT, REFUSE, ACCEPT } },
	{ "CR LF",		B(""),	   B("\r\n"),	{ REFUSE, REFUSE, ACCEPT } },
	{ "trailing CR",	B(""),	   B("\r"),	{ REFUSE, REFUSE, ACCEPT } },
	{ "trailing \\v",	B(""),	   B("\v"),	{ REFUSE, REFUSE, ACCEPT } },
	/* proc_douintvec() parses one number and ignores what follows */
	{ "second word",	B(""),	   B(" junk"),	{ ACCEPT, REFUSE, REFUSE } },
	{ "second number",	B(""),	   B(" 1"),	{ ACCEPT, REFUSE, REFUSE } },
	{ "trailing junk",	B(""),	   B("abc"),	{ REFUSE, REFUSE, REFUSE } },
	{ "trailing dot",	B(""),	   B(".5"),	{ REFUSE, REFUSE, REFUSE } },
	{ "trailing comma",	B(""),	   B(",1"),	{ REFUSE, REFUSE, REFUSE } },
	{ "trailing minus",	B(""),	   B("-"),	{ REFUSE, REFUSE, REFUSE } },
	/* sysfs and the feature file see a C string: a NUL ends the value */
	{ "trailing NUL",	B(""),	   B("\0"),	{ REFUSE, ACCEPT, ACCEPT } },
	{ "NUL then junk",	B(""),	   B("\0junk"),	{ REFUSE, ACCEPT, ACCEPT } },
	{ "NUL newline",	B(""),	   B("\0\n"),	{ REFUSE, ACCEPT, ACCEPT } },
	{ "leading NUL",	B("\0"),   B(""),	{ REFUSE, REFUSE, REFUSE } },
	/* kstrtoull() skips one '+'; proc_get_long() wants a digit */
	{ "plus sign",		B("+"),	   B(""),	{ REFUSE, ACCEPT, REFUSE } },
	{ "two plus signs",	B("++"),   B(""),	{ REFUSE, REFUSE, REFUSE } },
	{ "minus sign",		B("-"),	   B(""),	{ REFUSE, REFUSE, REFUSE } },
	{ "double quotes",	B("\""),   B("\""),	{ REFUSE, REFUSE, REFUSE } },
	{ "single quotes",	B("'"),	   B("'"),	{ REFUSE, REFUSE, REFUSE } },
	{ "brackets",		B("["),	   B("]"),	{ REFUSE, REFUSE, REFUSE } },
};

TEST_F(knob, forms)
{
	const struct knob_desc *d = variant->desc;
	char buf[VAL_LEN * 2], what[96];
	unsigned int f;
	int i;

	for (i = 0; i < self->st.n; i++) {
		const struct inst *in = &self->st.inst[i];
		const char *path = in->path;

		for (f = 0; f < ARRAY_SIZE(forms); f++) {
			const struct form *fm = &forms[f];
			const char *from = d->good[f % 2 ? 0 : 1];
			const char *g = other_good(d, from, f);
			size_t len = 0;

			preset(_metadata, path, from);
			memcpy(buf, fm->pre, fm->prelen);
			len += fm->prelen;
			memcpy(buf + len, g, strlen(g));
			len += strlen(g);
			memcpy(buf + len, fm->post, fm->postlen);
			len += fm->postlen;
			snprintf(what, sizeof(what), "%s, %s parser", fm->name,
				 parser_names[d->parser]);
			if (fm->want[d->parser] == ACCEPT)
				expect_accepted(_metadata, d, path, buf, len, len,
						g, what);
			else
				expect_refused(_metadata, in, buf, len, what);
		}
	}
	summary(d, &self->st);
}

/* 2^64 + @v in decimal */
static void above_u64(unsigned long v, char *buf, size_t len)
{
	unsigned __int128 x = ((unsigned __int128)1 << 64) + v;
	char tmp[48];
	int n = 0;

	do {
		tmp[n++] = '0' + (int)(x % 10);
		x /= 10;
	} while (x);
	if ((size_t)n >= len)
		n = len - 1;
	for (int i = 0; i < n; i++)
		buf[i] = tmp[n - 1 - i];
	buf[n] = '\0';
}

/*
 * Other spellings of a number: the sysctls parse with base 0 (hex and
 * octal), the sysfs attributes with base 10 (leading zeros are decimal).
 * A good value plus 2^32 or 2^64 must not wrap around to it.
 */
TEST_F(knob, number_forms)
{
	const struct knob_desc *d = variant->desc;
	char buf[64], what[64];
	int i, k;

	if (d->parser == FEATURE)
		SKIP(return, "%s takes names, not numbers", d->name);

	for (i = 0; i < self->st.n; i++) {
		const struct inst *in = &self->st.inst[i];
		const char *path = in->path;

		for (k = 0; d->good[k]; k++) {
			const char *g = d->good[k];
			const char *from = other_good(d, g, k + 1);
			unsigned long v = strtoul(g, NULL, 10);

			snprintf(buf, sizeof(buf), "0x%lx", v);
			preset(_metadata, path, from);
			if (d->parser == SYSCTL)
				expect_accepted(_metadata, d, path, buf, strlen(buf),
						strlen(buf), g, "hex, base 0");
			else
				expect_refused(_metadata, in, buf, strlen(buf),
					       "hex, base 10 only");

			preset(_metadata, path, from);
			if (d->parser == SYSCTL) {
				snprintf(buf, sizeof(buf), "0%lo", v);
				expect_accepted(_metadata, d, path, buf, strlen(buf),
						strlen(buf), g, "octal, base 0");
			} else {
				snprintf(buf, sizeof(buf), "000%lu", v);
				expect_accepted(_metadata, d, path, buf, strlen(buf),
						strlen(buf), g, "leading zeros, base 10");
			}

			preset(_metadata, path, g);
			snprintf(buf, sizeof(buf), "%llu", (1ULL << 32) + v);
			snprintf(what, sizeof(what), "%s + 2^32", g);
			expect_refused(_metadata, in, buf, strlen(buf), what);
			above_u64(v, buf, sizeof(buf));
			snprintf(what, sizeof(what), "%s + 2^64", g);
			expect_refused(_metadata, in, buf, strlen(buf), what);
			preset(_metadata, path, from);
			snprintf(buf, sizeof(buf), "%llu", (1ULL << 32) + v);
			expect_refused(_metadata, in, buf, strlen(buf), "wraps to a good value");
		}
	}
	summary(d, &self->st);
}

/* Bad for every knob, whatever its range */
static const char * const common_bad[] = {
	"-1", "-0", "-4294967295", "-9223372036854775808",
	"4294967296", "4294967297", "18446744073709551615",
	"18446744073709551616", "99999999999999999999999",
	"abc", "one", "true", "on", "yes", "0x", "0b1", "1e3", "1.5", "1,5",
	"1_000", "0x1g", "--1", "+-1", "-+1",
	" ", "\n", "\t\n", "\v", "\r\n",
};

/* Strings with NUL bytes, given with their length */
static const struct { const char *s; size_t len; } nul_bad[] = {
	{ B("\0") }, { B("\0\0\0\0") }, { B("\0\n") }, { B(" \0") },
};

TEST_F(knob, bad_values)
{
	const struct knob_desc *d = variant->desc;
	static char big[BIG_LEN];
	int i, k, s;

	for (i = 0; i < self->st.n; i++) {
		const struct inst *in = &self->st.inst[i];
		const char *path = in->path;

		/* From two starting points: a refusal must not reset either */
		for (s = 0; s < 2; s++) {
			const char *from = s ? other_good(d, d->good[0], 1) : d->good[0];

			preset(_metadata, path, from);
			for (k = 0; k < (int)ARRAY_SIZE(common_bad); k++)
				expect_refused(_metadata, in, common_bad[k],
					       strlen(common_bad[k]), "bad value");
			for (k = 0; k < (int)ARRAY_SIZE(nul_bad); k++)
				expect_refused(_metadata, in, nul_bad[k].s,
					       nul_bad[k].len, "NUL bytes");
			memset(big, '9', sizeof(big));
			expect_refused(_metadata, in, big, sizeof(big),
				       "4 KiB of digits");
			memset(big, 'a', sizeof(big));
			expect_refused(_metadata, in, big, sizeof(big),
				       "4 KiB of letters");
		}
	}
	summary(d, &self->st);
}

/* Well-formed, but outside the knob's range */
TEST_F(knob, out_of_range)
{
	const struct knob_desc *d = variant->desc;
	int i, k, s;

	for (i = 0; i < self->st.n; i++) {
		const struct inst *in = &self->st.inst[i];
		const char *path = in->path;

		for (s = 0; s < 2; s++) {
			preset(_metadata, path, s ? other_good(d, d->good[0], 1) : d->good[0]);
			for (k = 0; d->out_of_range[k]; k++)
				expect_refused(_metadata, in, d->out_of_range[k],
					       strlen(d->out_of_range[k]),
					       "out of range");
		}
	}
	summary(d, &self->st);
}

/*
 * 4 KiB writes. The sysctl looks at the first 4095 bytes: a value then
 * spaces is taken, spaces then a one-digit value is not (the digit is past
 * the window). The feature file takes the first 63 bytes and says so in
 * the count. kstrtouint() takes neither, but reads 4096 zeros as 0, where
 * the sysctl refuses a number longer than 21 characters.
 */
TEST_F(knob, long_writes)
{
	const struct knob_desc *d = variant->desc;
	static char big[BIG_LEN];
	int i;

	for (i = 0; i < self->st.n; i++) {
		const struct inst *in = &self->st.inst[i];
		const char *path = in->path;
		const char *from = d->good[0];
		const char *g = other_good(d, from, 1);

		preset(_metadata, path, from);
		memset(big, ' ', sizeof(big));
		memcpy(big, g, strlen(g));
		switch (d->parser) {
		case SYSCTL:
			expect_accepted(_metadata, d, path, big, sizeof(big),
					sizeof(big), g, "value then 4 KiB of spaces");
			break;
		case FEATURE:
			expect_accepted(_metadata, d, path, big, sizeof(big),
					FEAT_MAX, g, "value then 4 KiB of spaces");
			break;
		default:
			expect_refused(_metadata, in, big, sizeof(big),
				       "value then 4 KiB of spaces");
		}

		preset(_metadata, path, from);
		memset(big, ' ', sizeof(big));
		/* A longer number would straddle the sysctl's window */
		ASSERT_TRUE(d->parser != SYSCTL || strlen(g) == 1);
		memcpy(big + sizeof(big) - strlen(g), g, strlen(g));
		expect_refused(_metadata, in, big, sizeof(big),
			       "4 KiB of spaces then value");

		preset(_metadata, path, g);
		memset(big, '0', sizeof(big));
		if (d->parser == SYSFS)
			expect_accepted(_metadata, d, path, big, sizeof(big),
					sizeof(big), "0", "4 KiB of zeros");
		else
			expect_refused(_metadata, in, big, sizeof(big),
				       "4 KiB of zeros");
	}
	summary(d, &self->st);
}

/*
 * write(fd, "", 0) reaches the knob's handler. The sysctl handlers and
 * sysfs (sysfs_kf_write()) take it as a no-op and return 0; the feature
 * file looks the empty name up and refuses it.
 */
TEST_F(knob, empty_write)
{
	const struct knob_desc *d = variant->desc;
	static char before[RAW_LEN], after[RAW_LEN];
	int i, s;
	ssize_t n;

	for (i = 0; i < self->st.n; i++) {
		const struct inst *in = &self->st.inst[i];
		const char *path = in->path;

		for (s = 0; s < 2; s++) {
			preset(_metadata, path, s ? other_good(d, d->good[0], 1) : d->good[0]);
			ASSERT_LE(0, kio_read(path, before, sizeof(before)));
			n = kio_write(path, "", 0);
			checked++;
			if (d->parser == FEATURE) {
				EXPECT_EQ(-EINVAL, n);
			} else {
				EXPECT_EQ(0, n) TH_LOG("%s: empty write gave %zd", path, n);
			}
			ASSERT_LE(0, kio_read(path, after, sizeof(after)));
			EXPECT_STREQ(before, after) TH_LOG("%s changed by an empty write", path);
		}
	}
	summary(d, &self->st);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * An empty write must stay a no-op while someone else writes the knob: a
 * handler that takes the old value before its lock and stores it back on
 * a write that parsed nothing would undo the other writer's value. Here
 * a child does empty writes in a loop while we write two good values in
 * turn and read each one back.
 */
TEST_F_TIMEOUT(knob, empty_write_race, 60)
{
	const struct knob_desc *d = variant->desc;
	const struct inst *in = &self->st.inst[0];
	const char *a = d->good[0], *b = other_good(d, a, 1);
	long writes = 0, undone = 0;
	char v[VAL_LEN];
	double end;
	int status;
	pid_t pid;

	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		for (;;)
			kio_write(in->path, "", 0);
	}
	end = now_s() + RACE_SECONDS;
	/* Until time is up, or the first few lost writes made the point */
	while (now_s() < end && writes < RACE_WRITES && undone < 3) {
		const char *g = writes++ & 1 ? b : a;

		if (value_set(in->path, g) || value_get(d, in->path, v, sizeof(v))) {
			TH_LOG("%s: cannot write or read %s", in->path, g);
			_metadata->exit_code = KSFT_FAIL;
			break;
		}
		if (strcmp(v, g) && ++undone)
			TH_LOG("%s: wrote %s, read back %s", in->path, g, v);
	}
	kill(pid, SIGKILL);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	checked = writes;
	ksft_print_msg("%s: %ld of %ld writes undone by concurrent empty writes\n",
		       in->path, undone, writes);
	EXPECT_EQ(0, undone);
	if (!undone)
		EXPECT_LT(100, writes) TH_LOG("too few writes to say anything");
	summary(d, &self->st);
}

/*
 * As @cred, write to @path a good value other than its current one (put in
 * @g): the file's content before goes to @before, the outcome to @r.
 */
static void write_other_as(struct __test_metadata *_metadata,
			   const struct knob_desc *d, const char *path,
			   enum kio_cred cred, struct kio_result *r,
			   const char **g, char *before)
{
	char v[VAL_LEN];

	ASSERT_EQ(0, value_get(d, path, v, sizeof(v)));
	*g = other_good(d, v, 0);
	ASSERT_LE(0, kio_read(path, before, RAW_LEN));
	ASSERT_EQ(0, kio_write_as(cred, path, *g, strlen(*g), r));
	checked++;
	ASSERT_EQ(0, r->setup_err)
		TH_LOG("cannot set up the credentials: %s", strerror(r->setup_err));
}

/*
 * The nobody user, without capabilities, cannot open any of the knobs for
 * writing: EACCES from the mode (0644 root, and debugfs's 0700 top
 * directory) before any handler runs.
 */
TEST_F(knob, non_root)
{
	const struct knob_desc *d = variant->desc;
	static char before[RAW_LEN], after[RAW_LEN];
	struct kio_result r;
	int i;

	for (i = 0; i < self->st.n; i++) {
		const struct inst *in = &self->st.inst[i];
		const char *path = in->path;
		const char *g;

		write_other_as(_metadata, d, path, KIO_AS_NOBODY, &r, &g, before);
		EXPECT_EQ(EACCES, r.open_err)
			TH_LOG("uid %d opening %s for writing: %s", KIO_NOBODY, path,
			       r.open_err ? strerror(r.open_err) : "allowed");
		if (!r.open_err)
			EXPECT_NE(0, r.write_err)
				TH_LOG("uid %d wrote \"%s\" to %s", KIO_NOBODY, g, path);
		ASSERT_LE(0, kio_read(path, after, sizeof(after)));
		EXPECT_STREQ(before, after);
	}
	summary(d, &self->st);
}

/*
 * uid 0 with every capability dropped. What the kernel guarantees differs
 * with the kind of file, and each is asserted:
 *
 *  SYSCTL   proc_sys_permission() gives uid 0 the owner's bits (the file
 *           opens), and the series' handlers then want CAP_SYS_ADMIN, as
 *           sched_energy_aware_handler() does: EPERM, the value unchanged.
 *  SYSFS    kernfs and debugfs check the file mode and nothing else
 *  FEATURE  (generic_permission()), and neither cpufreq's governor_store(),
 *           intel_pstate's stores nor sched_feat_write() look at
 *           capabilities: the files are root's with mode 0644, so uid 0
 *           without capabilities is their owner and may write, and the
 *           value must then read back. The mode is these knobs' only
 *           protection (non_root checks the other side of it): a file that
 *           lost its owner's write bit, changed owner, or a store that
 *           refuses or drops this write fails here.
 */
TEST_F(knob, root_without_caps)
{
	const struct knob_desc *d = variant->desc;
	static char before[RAW_LEN], after[RAW_LEN];
	struct kio_result r;
	char v[VAL_LEN];
	struct stat sb;
	const char *g;
	int i;

	for (i = 0; i < self->st.n; i++) {
		const struct inst *in = &self->st.inst[i];
		const char *path = in->path;

		write_other_as(_metadata, d, path, KIO_AS_ROOT_NO_CAPS, &r, &g, before);
		if (d->parser == SYSCTL) {
			EXPECT_EQ(0, r.open_err) TH_LOG("open: %s", strerror(r.open_err));
			EXPECT_EQ(EPERM, r.write_err)
				TH_LOG("uid 0 without CAP_SYS_ADMIN writing %s: %s", path,
				       r.write_err ? strerror(r.write_err) : "accepted");
			ASSERT_LE(0, kio_read(path, after, sizeof(after)));
			EXPECT_STREQ(before, after);
			continue;
		}
		ASSERT_EQ(0, stat(path, &sb)) TH_LOG("%s: %s", path, strerror(errno));
		EXPECT_EQ(0U, sb.st_uid) TH_LOG("%s is owned by uid %u, not root",
					       path, sb.st_uid);
		EXPECT_EQ(0644U, sb.st_mode & 07777)
			TH_LOG("%s has mode %04o, not 0644", path, sb.st_mode & 07777);
		EXPECT_EQ(0, r.open_err)
			TH_LOG("uid 0 without capabilities opening %s (mode %04o) for writing: %s",
			       path, sb.st_mode & 07777, strerror(r.open_err));
		if (r.open_err)
			continue;
		EXPECT_EQ(0, r.write_err)
			TH_LOG("uid 0 without capabilities writing \"%s\" to %s: %s",
			       g, path, strerror(r.write_err));
		EXPECT_EQ((ssize_t)strlen(g), r.written)
			TH_LOG("%s: short write of \"%s\"", path, g);
		ASSERT_EQ(0, value_get(d, path, v, sizeof(v)));
		EXPECT_STREQ(g, v) TH_LOG("%s after uid 0 without capabilities wrote it", path);
	}
	summary(d, &self->st);
}

/* ---- read-only debugfs views ---- */

FIXTURE(view) {
	int unused;
};

FIXTURE_VARIANT(view) {
	const char *path;
	const char *why;
};

FIXTURE_VARIANT_ADD(view, thermal_pressure) {
	.path = DEBUG_SCHED "/thermal_pressure",
	.why = "kernel without the averaged thermal pressure",
};

FIXTURE_VARIANT_ADD(view, steal) {
	.path = DEBUG_SCHED "/steal",
	.why = "kernel without CONFIG_SCHED_STEAL",
};

FIXTURE_SETUP(view)
{
	if (geteuid())
		SKIP(return, "must run as root");
	if (access(DEBUG_SCHED, F_OK))
		SKIP(return, "%s is missing: debugfs not mounted or no CONFIG_SCHED_DEBUG",
		     DEBUG_SCHED);
	if (access(variant->path, F_OK))
		SKIP(return, "%s is missing: %s", variant->path, variant->why);
}

FIXTURE_TEARDOWN(view)
{
}

static int count_lines(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

/*
 * Mode 0444 and no write method: root opens it (CAP_DAC_OVERRIDE) and
 * the write fails with EINVAL (no FMODE_CAN_WRITE); nobody cannot open it.
 */
TEST_F(view, writes_refused)
{
	static char before[RAW_LEN], after[RAW_LEN];
	static const char * const junk[] = { "0", "1\n", "cpu0 orig=0", "" };
	struct kio_result r;
	unsigned int k;
	ssize_t n;

	ASSERT_LT(0, kio_read(variant->path, before, sizeof(before)));
	for (k = 0; k < ARRAY_SIZE(junk); k++) {
		n = kio_write(variant->path, junk[k], strlen(junk[k]));
		EXPECT_EQ(-EINVAL, n) TH_LOG("root writing \"%s\" to %s: %zd",
					     junk[k], variant->path, n);
	}
	ASSERT_EQ(0, kio_write_as(KIO_AS_NOBODY, variant->path, "0", 1, &r));
	ASSERT_EQ(0, r.setup_err);
	EXPECT_EQ(EACCES, r.open_err);
	ASSERT_LT(0, kio_read(variant->path, after, sizeof(after)));
	EXPECT_EQ(count_lines(before), count_lines(after));
	EXPECT_EQ(sysconf(_SC_NPROCESSORS_ONLN), count_lines(after))
		TH_LOG("%s: not one line per online CPU", variant->path);
}

TEST_HARNESS_MAIN
