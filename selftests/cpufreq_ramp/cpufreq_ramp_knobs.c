// SPDX-License-Identifier: GPL-2.0
/*
 * Validation of the ramp-up knobs:
 *  - schedutil's up_rate_limit_us, down_rate_limit_us, rate_limit_us and
 *    fast_ramp_up (per policy, or global when the driver has no per-policy
 *    governors): good values read back, bad ones fail with EINVAL and leave
 *    the old value, non-root writers are refused, rate_limit_us sets both;
 *  - intel_pstate's fast_ramp_up: present only in the active mode without
 *    HWP, same validation (SKIP when intel_pstate is not the driver, as in
 *    QEMU). On a real Sandy Bridge class machine, boot with
 *    intel_pstate=active (or write "active" to intel_pstate/status) and run
 *    this program as root to exercise it.
 */
#define _GNU_SOURCE
#include <stdbool.h>
#include <string.h>

#include "kselftest_harness.h"
#include "ramp_sysfs.h"

static const char * const sugov_knobs[] = {
	"rate_limit_us", "up_rate_limit_us", "down_rate_limit_us",
	"fast_ramp_up",
};

/* Bad for every knob: not an unsigned decimal integer that fits. */
static const char * const bad_numbers[] = {
	"-1", "abc", "1.5", "0x10", "12abc", " 5", "5 5", "\n",
	"4294967296", "99999999999999999999",
};

/* Bad for the 0/1 switches only. */
static const char * const bad_switches[] = { "2", "10", "4294967295" };

/*
 * As the nobody user in a child, write @val to @path: whether a permission
 * check refused it (logged when not).
 */
static bool nobody_refused(struct __test_metadata *_metadata,
			   const char *path, const char *val)
{
	struct kio_result r;

	if (kio_write_as(KIO_AS_NOBODY, path, val, strlen(val), &r) || r.setup_err) {
		TH_LOG("cannot write %s as nobody", path);
		return false;
	}
	if (!kio_refused(&r))
		TH_LOG("non-root write to %s: %s", path,
		       r.open_err ? strerror(r.open_err) :
		       r.write_err ? strerror(r.write_err) : "succeeded");
	return kio_refused(&r);
}

/* Writing each of @bad to @path fails with EINVAL and keeps @keep. */
static void expect_refused(struct __test_metadata *_metadata,
			   const char *path, const char * const *bad, int n,
			   const char *keep)
{
	char buf[64];
	int i;

	for (i = 0; i < n; i++) {
		EXPECT_EQ(-EINVAL, kio_write_str(path, bad[i]))
			TH_LOG("%s accepted \"%s\"", path, bad[i]);
		ASSERT_EQ(0, kio_read_line(path, buf, sizeof(buf)));
		EXPECT_STREQ(keep, buf)
			TH_LOG("%s changed by the refused \"%s\"", path, bad[i]);
	}
}

FIXTURE(sugov) {
	struct ramp_policy p;
	char saved[4][64];
};

FIXTURE_SETUP(sugov)
{
	char path[PATH_MAX];
	unsigned int i;
	int ret;

	if (geteuid())
		SKIP(return, "must run as root");
	ret = ramp_policy_get(&self->p);
	if (ret == -ENOENT)
		SKIP(return, "no cpufreq policy with the schedutil governor");
	ASSERT_EQ(0, ret);
	for (i = 0; i < ARRAY_SIZE(sugov_knobs); i++) {
		ramp_tunable(&self->p, sugov_knobs[i], path);
		if (access(path, F_OK)) {
			ramp_policy_put(&self->p);
			SKIP(return, "%s missing: kernel without the ramp-up tweaks",
			     path);
		}
		ASSERT_EQ(0, kio_read_line(path, self->saved[i], sizeof(self->saved[i])));
	}
}

FIXTURE_TEARDOWN(sugov)
{
	char path[PATH_MAX];

	if (!self->saved[0][0])
		return;
	/* rate_limit_us first: it sets both limits. */
	kio_write_str(ramp_tunable(&self->p, "rate_limit_us", path), self->saved[0]);
	kio_write_str(ramp_tunable(&self->p, "up_rate_limit_us", path), self->saved[1]);
	kio_write_str(ramp_tunable(&self->p, "down_rate_limit_us", path), self->saved[2]);
	kio_write_str(ramp_tunable(&self->p, "fast_ramp_up", path), self->saved[3]);
	ramp_policy_put(&self->p);
}

TEST_F(sugov, good_values_read_back)
{
	static const char * const good[] = { "0", "1", "2000", "100000\n",
					     "4294967295" };
	char path[PATH_MAX], buf[64], want[64];
	unsigned int i, k;

	for (k = 1; k <= 2; k++) {	/* up_, down_rate_limit_us */
		ramp_tunable(&self->p, sugov_knobs[k], path);
		for (i = 0; i < ARRAY_SIZE(good); i++) {
			ASSERT_EQ(0, kio_write_str(path, good[i]))
				TH_LOG("%s refused \"%s\"", path, good[i]);
			ASSERT_EQ(0, kio_read_line(path, buf, sizeof(buf)));
			snprintf(want, sizeof(want), "%s", good[i]);
			want[strcspn(want, "\n")] = '\0';
			EXPECT_STREQ(want, buf);
		}
	}
	ramp_tunable(&self->p, "fast_ramp_up", path);
	for (i = 0; i < 2; i++) {
		ASSERT_EQ(0, kio_write_str(path, i ? "1\n" : "0"));
		ASSERT_EQ(0, kio_read_line(path, buf, sizeof(buf)));
		EXPECT_STREQ(i ? "1" : "0", buf);
	}
}

TEST_F(sugov, rate_limit_us_sets_both)
{
	char path[PATH_MAX];
	unsigned long v;

	ASSERT_EQ(0, kio_write_str(ramp_tunable(&self->p, "up_rate_limit_us", path), "500"));
	ASSERT_EQ(0, kio_write_str(ramp_tunable(&self->p, "down_rate_limit_us", path), "100000"));
	ASSERT_EQ(0, kio_write_str(ramp_tunable(&self->p, "rate_limit_us", path), "2000"));
	ASSERT_EQ(0, kio_read_ul(ramp_tunable(&self->p, "up_rate_limit_us", path), &v));
	EXPECT_EQ(2000UL, v);
	ASSERT_EQ(0, kio_read_ul(ramp_tunable(&self->p, "down_rate_limit_us", path), &v));
	EXPECT_EQ(2000UL, v);
	ASSERT_EQ(0, kio_read_ul(ramp_tunable(&self->p, "rate_limit_us", path), &v));
	EXPECT_EQ(2000UL, v);
}

/* When the two limits differ, rate_limit_us reads the smaller one. */
TEST_F(sugov, rate_limit_us_reads_the_smaller)
{
	char path[PATH_MAX];
	unsigned long v;

	ASSERT_EQ(0, kio_write_str(ramp_tunable(&self->p, "up_rate_limit_us", path), "500"));
	ASSERT_EQ(0, kio_write_str(ramp_tunable(&self->p, "down_rate_limit_us", path), "100000"));
	ASSERT_EQ(0, kio_read_ul(ramp_tunable(&self->p, "rate_limit_us", path), &v));
	EXPECT_EQ(500UL, v);
	ASSERT_EQ(0, kio_write_str(ramp_tunable(&self->p, "up_rate_limit_us", path), "300000"));
	ASSERT_EQ(0, kio_read_ul(ramp_tunable(&self->p, "rate_limit_us", path), &v));
	EXPECT_EQ(100000UL, v);
	/* ... and the limits themselves are independent. */
	ASSERT_EQ(0, kio_read_ul(ramp_tunable(&self->p, "up_rate_limit_us", path), &v));
	EXPECT_EQ(300000UL, v);
}

TEST_F(sugov, bad_values_refused)
{
	char path[PATH_MAX];
	unsigned int k;

	for (k = 0; k < ARRAY_SIZE(sugov_knobs); k++) {
		ramp_tunable(&self->p, sugov_knobs[k], path);
		ASSERT_EQ(0, kio_write_str(path, "1"));
		expect_refused(_metadata, path, bad_numbers,
			       ARRAY_SIZE(bad_numbers), "1");
	}
	ramp_tunable(&self->p, "fast_ramp_up", path);
	expect_refused(_metadata, path, bad_switches, ARRAY_SIZE(bad_switches), "1");
	ASSERT_EQ(0, kio_write_str(path, "0"));
	expect_refused(_metadata, path, bad_switches, ARRAY_SIZE(bad_switches), "0");
}

TEST_F(sugov, non_root_refused)
{
	char path[PATH_MAX], buf[64];
	unsigned int k;

	for (k = 0; k < ARRAY_SIZE(sugov_knobs); k++) {
		ramp_tunable(&self->p, sugov_knobs[k], path);
		EXPECT_TRUE(nobody_refused(_metadata, path, "0"));
		ASSERT_EQ(0, kio_read_line(path, buf, sizeof(buf)));
		EXPECT_STREQ(self->saved[k], buf);
	}
}

FIXTURE(pstate) {
	char saved[64];
};

/* intel_pstate's fast_ramp_up, where intel_pstate drives the CPUs. */
FIXTURE_SETUP(pstate)
{
	char buf[64];

	if (geteuid())
		SKIP(return, "must run as root");
	if (kio_read_line(PSTATE_DIR "/status", buf, sizeof(buf)))
		SKIP(return, "intel_pstate is not in use");
	if (strcmp(buf, "active") && strcmp(buf, "passive"))
		SKIP(return, "intel_pstate is %s", buf);
}

FIXTURE_TEARDOWN(pstate)
{
	if (self->saved[0])
		kio_write_str(PSTATE_DIR "/fast_ramp_up", self->saved);
}

/* Present exactly in the active mode without HWP. */
TEST_F(pstate, present_where_it_has_an_effect)
{
	int present = !access(PSTATE_DIR "/fast_ramp_up", F_OK);
	int hwp = !access(PSTATE_DIR "/hwp_dynamic_boost", F_OK);
	char status[64];

	ASSERT_EQ(0, kio_read_line(PSTATE_DIR "/status", status, sizeof(status)));
	TH_LOG("status %s, HWP %s, fast_ramp_up %s", status,
	       hwp ? "on" : "off", present ? "present" : "absent");
	if (!strcmp(status, "active") && !hwp) {
		EXPECT_TRUE(present);
	} else {
		EXPECT_FALSE(present);
	}
}

TEST_F(pstate, values)
{
	const char *path = PSTATE_DIR "/fast_ramp_up";
	char buf[64];

	if (access(path, F_OK))
		SKIP(return, "no fast_ramp_up here (passive mode or HWP)");
	ASSERT_EQ(0, kio_read_line(path, self->saved, sizeof(self->saved)));

	ASSERT_EQ(0, kio_write_str(path, "1"));
	ASSERT_EQ(0, kio_read_line(path, buf, sizeof(buf)));
	EXPECT_STREQ("1", buf);
	expect_refused(_metadata, path, bad_numbers, ARRAY_SIZE(bad_numbers), "1");
	expect_refused(_metadata, path, bad_switches, ARRAY_SIZE(bad_switches), "1");
	ASSERT_EQ(0, kio_write_str(path, "0\n"));
	ASSERT_EQ(0, kio_read_line(path, buf, sizeof(buf)));
	EXPECT_STREQ("0", buf);

	EXPECT_TRUE(nobody_refused(_metadata, path, "1"));
	ASSERT_EQ(0, kio_read_line(path, buf, sizeof(buf)));
	EXPECT_STREQ("0", buf);
}

TEST_HARNESS_MAIN
