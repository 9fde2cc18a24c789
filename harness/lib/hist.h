/* hist.h - log-linear latency histograms (16 linear buckets per octave). */
#ifndef SB_HIST_H
#define SB_HIST_H

#include <stdint.h>

#include <jansson.h>

/* 16 sub-buckets per power of two bound the relative error of a reported
 * percentile by 1/32 (half a bucket); values are exact below 16 ns. */
#define HIST_SUB_BITS 4
#define HIST_SUB (1u << HIST_SUB_BITS)
#define HIST_MAX_EXP 47 /* 2^48 ns is 78 hours: anything above is clamped */
#define HIST_BUCKETS ((HIST_MAX_EXP - HIST_SUB_BITS + 2) * HIST_SUB)

struct hist {
	uint64_t count, sum, min, max;
	uint64_t bucket[HIST_BUCKETS];
};

static inline unsigned hist_index(uint64_t v)
{
	if (v < HIST_SUB)
		return (unsigned)v;
	unsigned e = 63u - (unsigned)__builtin_clzll(v);

	if (e > HIST_MAX_EXP)
		return HIST_BUCKETS - 1;
	return (e - HIST_SUB_BITS + 1) * HIST_SUB +
	       (unsigned)((v >> (e - HIST_SUB_BITS)) - HIST_SUB);
}

static inline void hist_add(struct hist *h, uint64_t v)
{
	h->bucket[hist_index(v)]++;
	h->count++;
	h->sum += v;
	if (v < h->min || h->count == 1)
		h->min = v;
	if (v > h->max)
		h->max = v;
}

void hist_init(struct hist *h);
uint64_t hist_bucket_lo(unsigned idx);
uint64_t hist_bucket_width(unsigned idx);
void hist_merge(struct hist *dst, const struct hist *src);
/* q in [0,1]; the midpoint of the bucket holding the ceil(q*count)-th
 * value, clamped to the observed min and max.  0 when empty. */
uint64_t hist_quantile(const struct hist *h, double q);
/* {"count","min","mean","p50","p90","p99","p99_9","p99_99","max"} */
json_t *hist_summary_json(const struct hist *h);
/* Sparse buckets as [[lo_ns, width_ns, count], ...], non-zero only. */
json_t *hist_buckets_json(const struct hist *h);

#endif
