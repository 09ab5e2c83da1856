// SPDX-License-Identifier: GPL-2.0
/* How fast the host runs a fixed loop: 200 timed rounds, mean and worst. */
#include <stdio.h>
#include <time.h>

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(void)
{
	double worst = 0, sum = 0;
	int r;

	for (r = 0; r < 200; r++) {
		volatile unsigned long s = 0;
		double t0 = now_ms(), d;
		unsigned long i;

		for (i = 0; i < 2000000; i++)
			s += i;
		d = now_ms() - t0;
		sum += d;
		if (d > worst)
			worst = d;
	}
	printf("mean %.2f ms worst %.2f ms\n", sum / 200, worst);
	return 0;
}
