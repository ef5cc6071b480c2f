// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * PPS-lock demo on the Verilator model of the card's clock core.
 *
 * Scenario (docs/simulation.md): the oscillator starts +100 ppm off (with
 * random-walk drift and air-conditioning temperature wander); the host sets
 * the card's time from its own clock and switches the servo on through the
 * registers. The demo measures
 *   lock time    scaled seconds from servo on until pps.status = LOCKED
 *   RMS / max    time error after lock, from truth edges on event input 0
 *                (stamp - capture delay - true time), over 60 s
 *   holdover     time error 60 s after the last PPS edge (GPS switched off)
 * With the phase-faithful oscillator every ns figure is the real-time
 * equivalent and one scaled second stands for one real second.
 *
 * usage: servo_demo [--json FILE] [--trace FILE] [--ppm P] [--interval-ms M]
 *                   [--seed N] [--measure S]
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "synpcix_regs.h"
#include "world.h"

#define MAX_ERR 8192

static double wall(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static const char *state_name(uint32_t s)
{
	static const char *n[] = { "FREERUN", "LOCKING", "LOCKED", "HOLDOVER" };

	return n[s & 3];
}

int main(int argc, char **argv)
{
	const char *json = NULL, *trace_path = NULL;
	struct world_params wp = { .interval_ns = 10e6, .offset_ppm = 100.0, .seed = 1,
				   .phase_faithful = 1 };
	int measure_s = 60, holdover_s = 60;
	static struct world w;
	static double err[MAX_ERR], tt[MAX_ERR];
	FILE *trace = NULL;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json") && i + 1 < argc)
			json = argv[++i];
		else if (!strcmp(argv[i], "--trace") && i + 1 < argc)
			trace_path = argv[++i];
		else if (!strcmp(argv[i], "--ppm") && i + 1 < argc)
			wp.offset_ppm = atof(argv[++i]);
		else if (!strcmp(argv[i], "--interval-ms") && i + 1 < argc)
			wp.interval_ns = atof(argv[++i]) * 1e6;
		else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
			wp.seed = strtoull(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--measure") && i + 1 < argc)
			measure_s = atoi(argv[++i]);
		else {
			fprintf(stderr, "usage: %s [--json FILE] [--trace FILE] [--ppm P] "
				"[--interval-ms M] [--seed N] [--measure S]\n", argv[0]);
			return 2;
		}
	}
	if (trace_path && !(trace = fopen(trace_path, "w"))) {
		perror(trace_path);
		return 2;
	}
	if (trace)
		fprintf(trace, "second,state,offset_ns,freq_adj,osc_ppm_real,temp_c,"
			"err_mean_ns,n_err\n");

	double w0 = wall();
	world_init(&w, &wp);
	if (card_read32(w.card, SYNPCIX_ID_MAGIC) != SYNPCIX_ID_MAGIC_RESET) {
		fprintf(stderr, "servo_demo: id.magic wrong: not the card's register map\n");
		return 1;
	}
	world_probe(&w);
	world_config_servo(&w, 0.7, 0.3, 1.0);
	world_events(&w, 4);
	world_run_until(&w, 0.5 * w.interval_ns);
	world_set_time(&w, 0);
	world_pps_mode(&w, SYNPCIX_PPS_CTRL_MODE_SERVO);
	double t_on = world_now_s(&w);

	printf("SynPCI-X PPS servo demo (Verilator model of clock_core)\n");
	printf("  oscillator %+.1f ppm, XO 0.5 ppm/degC, 12-min AC cycle, seed %llu\n",
	       wp.offset_ppm, (unsigned long long)wp.seed);
	printf("  scaled second: PPS interval %.3f ms = 1 s real (scale %.4g)\n",
	       wp.interval_ns / 1e6, w.scale);
	printf("  %6s %-9s %12s %12s %10s %10s\n", "second", "state", "offset_ns",
	       "freq_adj", "osc_ppm", "err_ns");

	double lock_time = NAN;
	int64_t lock_k = -1, off_k = -1, end_k = 1000000;
	double sum2 = 0, maxe = 0, sum = 0;
	long n_meas = 0;
	double pre_sum = 0;
	long pre_n = 0;
	double hold_err = NAN, hold_sum = 0;
	long hold_n = 0;
	int saw_holdover = 0, relocked = 0;
	int64_t relock_k = -1;

	for (int64_t k = 1; k <= end_k; k++) {
		world_run_to_second(&w, k);
		uint32_t st = world_pps_state(&w);
		int32_t off = (int32_t)card_read32(w.card, SYNPCIX_PPS_OFFSET_NS);
		int32_t fadj = (int32_t)card_read32(w.card, SYNPCIX_PPS_FREQ_ADJ);
		int n = world_pop_errors(&w, err, tt, MAX_ERR);
		double tr = card_now_ns(w.card) * 1e-9 / w.scale;
		double mean = 0;

		for (int i = 0; i < n; i++)
			mean += err[i] / n;
		if (lock_k < 0 && st == SYNPCIX_PPS_STATUS_STATE_LOCKED) {
			lock_k = k;
			lock_time = k - t_on;	/* the edge at second k locked it */
			off_k = k + measure_s + 1;
			gps_outage(&w.gps, off_k, off_k + holdover_s + 1);
			/* re-lock after 60 s of holdover: the phase is then
			 * past reject_thresh, so 4 rejections, a re-acquisition
			 * and lock_count good edges come first (~12 s) */
			end_k = off_k + holdover_s + 30;
		}
		/* after lock: every truth edge up to the last PPS before the outage */
		if (lock_k >= 0 && k > lock_k && k <= off_k) {
			for (int i = 0; i < n; i++) {
				if (tt[i] >= (off_k - 1 + 0.05) * w.interval_ns)
					continue;
				sum += err[i];
				sum2 += err[i] * err[i];
				if (fabs(err[i]) > maxe)
					maxe = fabs(err[i]);
				n_meas++;
				if (tt[i] >= (off_k - 11) * w.interval_ns) {
					pre_sum += err[i];
					pre_n++;
				}
			}
		}
		/* holdover: last PPS at off_k - 1; the error 60 s later is the
		 * mean of the truth edges within +-0.5 s of that instant */
		if (off_k > 0) {
			double t60 = (off_k - 1 + holdover_s) * w.interval_ns;

			for (int i = 0; i < n; i++)
				if (fabs(tt[i] - t60) <= 0.5 * w.interval_ns) {
					hold_sum += err[i];
					hold_n++;
				}
			if (st == SYNPCIX_PPS_STATUS_STATE_HOLDOVER)
				saw_holdover = 1;
			if (saw_holdover && !relocked && st == SYNPCIX_PPS_STATUS_STATE_LOCKED) {
				relocked = 1;
				relock_k = k;
			}
		}
		if (trace)
			fprintf(trace, "%lld,%s,%d,%d,%.4f,%.3f,%.2f,%d\n", (long long)k,
				state_name(st), off, fadj, osc_y_real(&w.osc, tr) * 1e6,
				osc_temp_c(&w.osc, tr), n ? mean : NAN, n);
		if (k <= 12 || k % 10 == 0 || k == lock_k || (off_k > 0 && k >= off_k - 1 &&
		    k <= off_k + 2) || k == relock_k) {
			char e[32] = "-";

			if (n)
				snprintf(e, sizeof(e), "%.1f", mean);
			printf("  %6lld %-9s %12d %12d %+10.4f %10s\n", (long long)k,
			       state_name(st), off, fadj, osc_y_real(&w.osc, tr) * 1e6, e);
		}
		if (lock_k < 0 && k > 60)
			break;
		if (relocked && k >= relock_k + 2)
			break;
	}
	double wall_s = wall() - w0;
	uint64_t clocks = card_tb_clocks(w.card);

	if (trace)
		fclose(trace);
	if (hold_n)
		hold_err = hold_sum / hold_n;
	double rms = n_meas ? sqrt(sum2 / n_meas) : NAN;
	double pre = pre_n ? pre_sum / pre_n : NAN;

	printf("\n  %-44s %12s\n", "result (real-time equivalent)", "value");
	printf("  %-44s %12.1f   goal < 10 s\n", "lock time, s (servo on -> LOCKED)", lock_time);
	printf("  %-44s %12.2f   goal < 20 ns\n", "RMS time error after lock, ns", rms);
	printf("  %-44s %12.1f\n", "max |time error| after lock, ns", maxe);
	printf("  %-44s %12.2f\n", "mean time error after lock, ns", n_meas ? sum / n_meas : NAN);
	printf("  %-44s %12ld\n", "truth edges measured after lock", n_meas);
	printf("  %-44s %12.1f\n", "time error 60 s after last PPS, ns", hold_err);
	printf("  %-44s %12.1f\n", "  (mean error in the 10 s before loss, ns)", pre);
	printf("  %-44s %12s\n", "HOLDOVER entered / re-locked after PPS back",
	       saw_holdover ? (relocked ? "yes / yes" : "yes / no") : "no");
	printf("  %-44s %12.2f\n", "Verilator speed, M timebase clocks/s", clocks / wall_s / 1e6);
	printf("  %-44s %12.1f\n", "wall time, s", wall_s);
	printf("  capture delay subtracted from stamps: %llu ns (id.features)\n",
	       (unsigned long long)w.capture_delay_ns);
	if (json) {
		FILE *f = fopen(json, "w");

		if (!f) {
			perror(json);
			return 2;
		}
		fprintf(f, "{\"lock_time_s\": %.2f, \"rms_error_ns\": %.2f, \"max_error_ns\": %.1f, "
			"\"holdover_drift_ns_60s\": %.1f}\n", lock_time, rms, maxe, hold_err);
		fclose(f);
		printf("  wrote %s\n", json);
	}
	world_free(&w);
	/* the figures are the result; failing to lock at all is an error */
	return isnan(lock_time) || !saw_holdover || !relocked ? 1 : 0;
}
